"""The sandbox forum, used the way a person (or an agent) uses it: through Chromium and HTTP.

Browser tests drive the real site started by the `sandbox` fixture; tests that change
data take `fresh_sandbox` so they start from the seed.
"""

from __future__ import annotations

import html
import re

import pytest
import requests
from playwright.sync_api import Locator, Page, expect

from tasks.sandbox.sites import FORUM

ACCOUNT = FORUM.accounts[0]
MINUS = "\u2212"


# ---- helpers ----


def log_in(page: Page, base: str) -> None:
    page.goto(base + "/login")
    page.get_by_label("Username").fill(ACCOUNT.username)
    page.get_by_label("Password").fill(ACCOUNT.password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def shown(score: int) -> str:
    """How a score reads on the page: 1,234 or −3."""
    return f"{MINUS if score < 0 else ''}{abs(score):,}"


def read_score(text: str) -> int:
    return int(text.strip().replace(",", "").replace(MINUS, "-"))


def listed_links(page: Page) -> Locator:
    return page.locator("article.submission .submission__link")


def listed_titles(page: Page) -> list[str]:
    return listed_links(page).all_inner_texts()


def listed_scores(page: Page) -> list[int]:
    return [read_score(t) for t in page.locator("article.submission .vote__net-score").all_inner_texts()]


def listed_times(page: Page) -> list[str]:
    return page.locator("article.submission time.submission__timestamp").evaluate_all(
        "nodes => nodes.map(n => n.dateTime)"
    )


def comment_author(comment) -> str:
    return comment.locator(".comment__info .fg-inherit").first.inner_text().strip()


def first_by_someone_else(comments):
    """The first of these comments written by another user than the task account."""
    return next(c for c in comments.all() if comment_author(c) != ACCOUNT.username)


def titles_in(page_html: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r'class="submission__link"[^>]*>([^<]+)</a>', page_html)]


# ---- HTTP-level checks ----


def test_seed_has_forums_posts_and_comments(sandbox):
    base = sandbox.forum_url
    counts = requests.get(base + "/__sandbox__/health", timeout=10).json()["counts"]
    assert counts["forums"] >= 8 and counts["users"] >= 20 and counts["submissions"] >= 60

    forum_rows = re.findall(r'class="forum-table__name"', requests.get(base + "/forums", timeout=10).text)
    assert len(forum_rows) == counts["forums"]

    with_comments, seen, page = 0, 0, 1
    while True:
        listing = requests.get(f"{base}/new?page={page}", timeout=10).text
        labels = re.findall(r'class="submission__comments-link"><strong>([^<]+)</strong>', listing)
        seen += len(labels)
        with_comments += sum(1 for label in labels if label != "No comments")
        if 'rel="next"' not in listing:
            break
        page += 1
    assert seen == counts["submissions"]
    assert with_comments >= 60


@pytest.mark.parametrize(
    "method, path",
    [
        ("get", "/submit"),
        ("get", "/submit/books"),
        ("get", "/create_forum"),
        ("get", f"/user/{ACCOUNT.username}/edit_biography"),
        ("get", f"/user/{ACCOUNT.username}/preferences"),
        ("get", f"/user/{ACCOUNT.username}/account"),
        ("post", "/sv/1"),
        ("post", "/cv/1"),
        ("post", "/f/books/1/-/comment"),
        ("post", "/f/books/subscribe"),
    ],
)
def test_pages_that_need_an_account_send_visitors_to_login(sandbox, method, path):
    url = sandbox.forum_url + path
    response = requests.request(method, url, data={"choice": "1"}, allow_redirects=False, timeout=10)
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/login")


def test_search_matches_every_word_across_forums(sandbox):
    base = sandbox.forum_url
    battery = titles_in(requests.get(base + "/search", params={"q": "battery"}, timeout=10).text)
    assert "Which cordless drill brand is worth investing in?" in battery  # DIY, word in the body
    assert "Steam Deck OLED announced with a bigger battery and an HDR screen" in battery  # gaming, title
    assert "How long should a laptop battery last before replacing it?" in battery  # technology
    assert not any("coffee" in title.lower() for title in battery)

    both_words = titles_in(requests.get(base + "/search", params={"q": "coffee Lisbon"}, timeout=10).text)
    assert both_words == ["Where to find the best coffee in Lisbon?"]

    nothing = requests.get(base + "/search", params={"q": "zeppelin"}, timeout=10).text
    assert "No results for" in nothing


def test_unknown_pages_are_not_found(sandbox):
    base = sandbox.forum_url
    assert requests.get(base + "/f/no_such_forum", timeout=10).status_code == 404
    assert requests.get(base + "/f/books/999999/missing", timeout=10).status_code == 404
    assert requests.get(base + "/user/nobody_at_all", timeout=10).status_code == 404


# ---- in the browser ----


def test_login_rejects_a_wrong_password_then_returns_to_the_page_that_asked(sandbox, page: Page):
    base = sandbox.forum_url
    page.goto(base + "/submit")
    expect(page).to_have_url(base + "/login")
    page.get_by_label("Username").fill(ACCOUNT.username)
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_have_text("Invalid credentials.")
    expect(page.get_by_label("Username")).to_have_value(ACCOUNT.username)

    page.get_by_label("Password").fill(ACCOUNT.password)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(base + "/submit")
    expect(page.get_by_role("navigation", name="Site").get_by_role("link", name=ACCOUNT.username)).to_be_visible()

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("navigation", name="Site").get_by_role("link", name="Log in")).to_be_visible()


def test_forum_sorting_by_new_and_top(sandbox, page: Page):
    base = sandbox.forum_url
    page.goto(base + "/forums")
    page.get_by_role("link", name="books", exact=True).click()
    expect(page).to_have_url(base + "/f/books")
    expect(page.get_by_role("heading", name="/f/books")).to_be_visible()

    page.get_by_role("link", name="New", exact=True).click()
    expect(page).to_have_url(base + "/f/books/new")
    new_times, new_titles = listed_times(page), listed_titles(page)
    assert len(new_times) >= 8
    assert new_times == sorted(new_times, reverse=True)

    page.get_by_role("link", name="Top", exact=True).click()
    expect(page).to_have_url(base + "/f/books/top")
    top_scores = listed_scores(page)
    assert top_scores == sorted(top_scores, reverse=True)
    assert listed_titles(page) != new_titles
    assert sorted(listed_titles(page)) == sorted(new_titles)


def test_a_post_shows_its_comments_nested_and_sorted_by_score(sandbox, page: Page):
    base = sandbox.forum_url
    page.goto(base + "/most_commented")
    top_post = page.locator("article.submission").first
    expected = int(top_post.locator(".submission__comments-link").inner_text().split()[0])
    top_post.locator(".submission__comments-link").click()

    assert page.locator("article.comment").count() == expected
    replies = page.locator("article.comment[data-level='1'] > .comment__replies > article.comment[data-level='2']")
    assert replies.count() > 0
    assert page.locator("article.comment[data-level='3']").count() > 0
    own_scores = page.locator(".submission-comments > article.comment > .comment__row .vote__net-score")
    top_level_scores = [read_score(t) for t in own_scores.all_inner_texts()]
    assert top_level_scores == sorted(top_level_scores, reverse=True)


def test_create_a_post_comment_on_it_and_reply_to_someone(fresh_sandbox, page: Page):
    base = fresh_sandbox.forum_url
    log_in(page, base)

    page.goto(base + "/f/books")
    page.get_by_role("link", name="Submit a new post").click()
    expect(page.locator("#submission_forum option:checked")).to_have_text("books")
    title = "Reading nook ideas for a tiny apartment"
    page.get_by_label("Title").fill(title)
    page.get_by_label("Body").fill("Looking for **cosy** ideas.\n\n<script>alert(1)</script>")
    page.get_by_role("button", name="Create submission").click()
    expect(page).to_have_url(re.compile(r"/f/books/\d+/reading-nook-ideas-for-a-tiny-apartment$"))
    post_url = page.url
    expect(page.locator(".submission__title")).to_have_text(title)
    expect(page.locator(".submission__body strong")).to_have_text("cosy")
    expect(page.locator(".submission__body")).to_contain_text("<script>alert(1)</script>")  # shown, not run

    page.goto(base + "/f/books/new")
    assert listed_titles(page)[0] == title

    page.goto(post_url)
    page.get_by_label("Comment").fill("Fairy lights and a big beanbag.")
    page.get_by_role("button", name="Post", exact=True).click()
    expect(page).to_have_url(re.compile(r"/comment/\d+$"))
    mine = page.locator("article.comment").filter(has_text="Fairy lights and a big beanbag.")
    expect(mine.locator(".comment__body")).to_have_text("Fairy lights and a big beanbag.")
    assert comment_author(mine) == ACCOUNT.username

    # Reply to another user's comment on a seeded post.
    page.goto(base + "/f/books")
    page.get_by_role("link", name=re.compile("^Just finished The Left Hand of Darkness")).click()
    top_level = page.locator(".submission-comments > article.comment")
    parent = first_by_someone_else(top_level)
    parent_author = comment_author(parent)
    parent.locator(".comment__nav").first.get_by_role("link", name="Reply").click()
    page.get_by_label("Comment").fill("Thanks, adding it to my list.")
    page.get_by_role("button", name="Post", exact=True).click()
    page.get_by_role("link", name="Parent").click()  # the new reply's own page shows it alone
    reply = page.locator("article.comment[data-level='2']").filter(has_text="Thanks, adding it to my list.")
    expect(reply).to_be_visible()
    assert comment_author(page.locator("article.comment[data-level='1']").first) == parent_author

    page.goto(base + f"/user/{ACCOUNT.username}/comments")
    listed = page.locator("article.comment")
    expect(listed.nth(0).locator(".comment__body")).to_have_text("Thanks, adding it to my list.")
    expect(listed.nth(0).locator(".comment__context")).to_contain_text(f"Reply to comment by {parent_author} in")
    expect(listed.nth(1).locator(".comment__body")).to_have_text("Fairy lights and a big beanbag.")
    expect(listed.nth(1).locator(".comment__context")).to_contain_text(f"Reply to {title} by {ACCOUNT.username}")
    times = listed.locator("time").evaluate_all("nodes => nodes.map(n => n.dateTime)")
    assert times == sorted(times, reverse=True)


# The selectors WebArena's reddit helpers read: author `.fg-inherit`, text `.comment__content`,
# time under `.comment__main > header > h1 > span`, nesting by `data-level`.
NEWEST_COMMENT_BY = """(username) => {
  const read = (node) => ({
    user: node.querySelector('.fg-inherit').outerText,
    text: node.querySelector('.comment__content').outerText,
    time: new Date(node.querySelector('.comment__main > header > h1 > span > time').dateTime),
  });
  let best = null;
  const walk = (node, level, parent) => {
    node.querySelectorAll('.comment').forEach((child) => {
      if (parseInt(child.getAttribute('data-level')) !== level + 1) return;
      const here = read(child);
      if (here.user === username && (!best || here.time > best.time)) {
        best = {text: here.text, parent: parent && parent.user, time: here.time};
      }
      walk(child, level + 1, here);
    });
  };
  walk(document.querySelector('#main'), 0, null);
  return best && {text: best.text, parent: best.parent};
}"""


def test_comment_threads_keep_the_markup_evaluators_read(fresh_sandbox, page: Page):
    base = fresh_sandbox.forum_url
    log_in(page, base)
    page.goto(base + "/f/movies")
    page.get_by_role("link", name="What's the best movie score of the last decade?").click()
    seeded = page.evaluate(NEWEST_COMMENT_BY, ACCOUNT.username)
    assert seeded["text"] == "The organ theme from Interstellar still gives me chills."

    top_level = page.locator(".submission-comments > article.comment")
    target = first_by_someone_else(top_level)
    target_author = comment_author(target)
    target.locator(".comment__nav").first.get_by_role("link", name="Reply").click()
    page.get_by_label("Comment").fill("Hans Zimmer again, every time.")
    page.get_by_role("button", name="Post", exact=True).click()
    page.get_by_role("link", name="View all comments").click()

    newest = page.evaluate(NEWEST_COMMENT_BY, ACCOUNT.username)
    assert newest == {"text": "Hans Zimmer again, every time.", "parent": target_author}
    assert page.locator("div.submission__vote form").get_attribute("class") in ("vote", "vote vote--user-upvoted")


def test_votes_change_scores_persist_and_can_be_retracted(fresh_sandbox, page: Page):
    base = fresh_sandbox.forum_url
    log_in(page, base)
    page.goto(base + "/f/science")
    post = page.locator("article.submission").filter(has=page.locator("form[class='vote']")).first
    post = page.locator("#" + post.get_attribute("id"))  # keep pointing at this post after reloads
    score = read_score(post.locator(".vote__net-score").inner_text())

    post.get_by_role("button", name="Upvote", exact=True).click()
    expect(post.locator(".vote__net-score")).to_have_text(shown(score + 1))
    expect(post.locator("form.vote")).to_have_attribute("class", "vote vote--user-upvoted")
    page.reload()
    expect(post.get_by_role("button", name="Retract upvote", exact=True)).to_be_visible()
    expect(post.locator(".vote__net-score")).to_have_text(shown(score + 1))

    post.get_by_role("button", name="Retract upvote", exact=True).click()
    expect(post.locator(".vote__net-score")).to_have_text(shown(score))
    expect(post.locator("form.vote")).to_have_attribute("class", "vote")
    post.get_by_role("button", name="Downvote", exact=True).click()
    expect(post.locator(".vote__net-score")).to_have_text(shown(score - 1))
    expect(post.locator("form.vote")).to_have_attribute("class", "vote vote--user-downvoted")

    # A comment: downvote, then switch to an upvote (two points), then retract.
    post.locator(".submission__comments-link").click()
    not_voted = "article.comment:has(> .comment__row > .comment__vote > form[class='vote'])"
    comment = page.locator("#" + page.locator(not_voted).first.get_attribute("id"))
    comment_score = read_score(comment.locator(".vote__net-score").first.inner_text())
    own_vote = comment.locator(".comment__vote").first
    own_vote.get_by_role("button", name="Downvote", exact=True).click()
    expect(own_vote.locator(".vote__net-score")).to_have_text(shown(comment_score - 1))
    own_vote.get_by_role("button", name="Upvote", exact=True).click()
    expect(own_vote.locator(".vote__net-score")).to_have_text(shown(comment_score + 1))
    expect(own_vote.locator("form")).to_have_attribute("class", "vote vote--user-upvoted")
    own_vote.get_by_role("button", name="Retract upvote", exact=True).click()
    expect(own_vote.locator(".vote__net-score")).to_have_text(shown(comment_score))


def test_reset_removes_new_content_and_restores_scores(fresh_sandbox, page: Page):
    base = fresh_sandbox.forum_url
    log_in(page, base)
    page.goto(base + "/f/travel")
    post = page.locator("article.submission").filter(has=page.locator("form[class='vote']")).first
    post_id = post.get_attribute("id")
    score = read_score(post.locator(".vote__net-score").inner_text())
    post.get_by_role("button", name="Upvote", exact=True).click()
    expect(page.locator(f"#{post_id} .vote__net-score")).to_have_text(shown(score + 1))

    page.goto(base + "/submit/travel")
    page.get_by_label("Title").fill("A weekend in Ghent")
    page.get_by_role("button", name="Create submission").click()
    expect(page.locator(".submission__title")).to_have_text("A weekend in Ghent")
    new_post_url = page.url
    page.get_by_label("Comment").fill("Go for the canals at night.")
    page.get_by_role("button", name="Post", exact=True).click()
    expect(page.locator(".comment__body").filter(has_text="Go for the canals at night.")).to_be_visible()

    fresh_sandbox.reset()

    assert page.goto(new_post_url).status == 404
    page.goto(base + "/f/travel")
    assert "A weekend in Ghent" not in listed_titles(page)
    expect(page.locator(f"#{post_id} .vote__net-score")).to_have_text(shown(score))
    expect(page.locator(f"#{post_id} form.vote")).to_have_attribute("class", "vote")
    page.goto(base + f"/user/{ACCOUNT.username}/comments")
    expect(page.locator(".comment__body").filter(has_text="Go for the canals at night.")).to_have_count(0)


def test_subscribing_lists_the_forum_on_the_front_page(fresh_sandbox, page: Page):
    base = fresh_sandbox.forum_url
    log_in(page, base)
    page.goto(base + "/f/history")
    count = page.locator(".subscribe-button__subscriber-count")
    before = int(count.inner_text().split()[0])
    page.get_by_role("button", name="Subscribe", exact=True).click()
    expect(page.get_by_role("button", name="Unsubscribe", exact=True)).to_be_visible()
    expect(count).to_have_text(f"{before + 1} subscribers")

    page.goto(base + "/")
    first_section = page.locator("#sidebar > section").first
    expect(first_section).to_contain_text("Subscribed forums")
    expect(first_section.get_by_role("link", name="history", exact=True)).to_be_visible()

    page.goto(base + "/f/history")
    page.get_by_role("button", name="Unsubscribe", exact=True).click()
    expect(page.get_by_role("button", name="Subscribe", exact=True)).to_be_visible()
    page.goto(base + "/")
    expect(page.locator("#sidebar > section").first.get_by_role("link", name="history", exact=True)).to_have_count(0)


def test_edit_biography_and_own_post(fresh_sandbox, page: Page):
    base = fresh_sandbox.forum_url
    log_in(page, base)
    page.get_by_role("navigation", name="Site").get_by_role("link", name=ACCOUNT.username).click()
    page.get_by_role("link", name="Edit biography").click()
    page.get_by_label("Biography").fill("Seeking *SDE* positions")
    page.get_by_role("button", name="Save").click()
    expect(page).to_have_url(base + f"/user/{ACCOUNT.username}")
    expect(page.locator(".user-bio__biography")).to_have_text("Seeking SDE positions")
    expect(page.locator(".user-bio__biography em")).to_have_text("SDE")

    page.get_by_role("link", name="Submissions", exact=True).click()
    own = page.locator("article.submission").filter(has_text="What are you playing this weekend?")
    own.get_by_role("link", name="Edit").click()
    body = page.get_by_label("Body")
    body.fill(body.input_value() + "\n\nEDIT: finished it, loved it.")
    page.get_by_role("button", name="Edit submission").click()
    expect(page.locator(".submission__body")).to_contain_text("EDIT: finished it, loved it.")
    expect(page.locator(".submission__edited-at")).to_be_visible()

    page.get_by_role("button", name="Delete").first.click()
    expect(page).to_have_url(base + "/f/gaming")
    assert "What are you playing this weekend?" not in listed_titles(page)


def test_sign_up_creates_an_account_that_can_post(fresh_sandbox, page: Page):
    base = fresh_sandbox.forum_url
    page.goto(base + "/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("new_reader")
    page.get_by_label("Password", exact=True).fill("short")
    page.get_by_label("Repeat password").fill("short")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("at least 8 characters")).to_be_visible()

    page.get_by_label("Password", exact=True).fill("a-long-password")
    page.get_by_label("Repeat password").fill("a-long-password")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("link", name="new_reader")).to_be_visible()
    page.goto(base + "/submit")
    expect(page.get_by_role("heading", name="Create submission")).to_be_visible()


def test_edit_and_delete_own_comments(fresh_sandbox, page: Page):
    base = fresh_sandbox.forum_url
    log_in(page, base)
    page.goto(base + f"/user/{ACCOUNT.username}/comments")
    answered = page.locator("article.comment").filter(has_text="The Dispossessed is a great follow-up")
    answered.get_by_role("link", name="Edit").click()
    page.get_by_label("Comment").fill("The Dispossessed is a great follow-up, and so is Always Coming Home.")
    page.get_by_role("button", name="Save").click()
    edited = page.locator("article.comment").filter(has_text="so is Always Coming Home")
    expect(edited.locator(".comment__edited-at")).to_be_visible()

    # It has a reply, so deleting leaves a placeholder and keeps the reply readable.
    edited.locator(".comment__nav").first.get_by_role("button", name="Delete").click()
    expect(page.locator("article.comment.comment--soft-deleted .comment__body").first).to_have_text("[deleted]")
    expect(page.get_by_text("Anarres stayed with me for months.")).to_be_visible()

    page.goto(base + f"/user/{ACCOUNT.username}/comments")
    lonely = page.locator("article.comment").filter(has_text="Set this as my wallpaper the day it came out.")
    lonely.get_by_role("button", name="Delete").click()
    expect(page.get_by_text("Set this as my wallpaper the day it came out.")).to_have_count(0)
    page.goto(base + f"/user/{ACCOUNT.username}/comments")
    expect(page.locator("article.comment")).to_have_count(3)


def test_preferences_change_the_front_page_order(fresh_sandbox, page: Page):
    base = fresh_sandbox.forum_url
    log_in(page, base)
    page.goto(base + f"/user/{ACCOUNT.username}/preferences")
    page.get_by_label("Front page sort mode").select_option(label="Top")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status")).to_have_text("User settings have been updated.")
    page.goto(base + "/")
    scores = listed_scores(page)
    assert scores == sorted(scores, reverse=True)
    assert scores[0] > scores[-1]


def test_user_overview_mixes_posts_and_comments_newest_first(sandbox, page: Page):
    page.goto(sandbox.forum_url + f"/user/{ACCOUNT.username}")
    items = page.locator(".user-activity > article")
    kinds = items.evaluate_all("nodes => nodes.map(n => n.classList.contains('submission') ? 'post' : 'comment')")
    assert set(kinds) == {"post", "comment"}
    times = items.evaluate_all("nodes => nodes.map(n => n.querySelector('time').dateTime)")
    assert times == sorted(times, reverse=True)
    expect(page.locator(".user-bio__biography")).to_have_text("Film nerd, weekend coder and slow reader.")


def test_post_urls_as_evaluators_write_them(sandbox):
    base = sandbox.forum_url
    listing = requests.get(base + "/f/movies/new", timeout=10).text
    post_path = re.search(r'href="(/f/movies/(\d+)/[^"]+)" class="submission__comments-link"', listing)
    title = titles_in(listing)[0]
    short = f"{base}/f/movies/{post_path.group(2)}/"  # the form reddit_get_post_url returns
    page_html = requests.get(short, timeout=10).text
    assert 'class="submission__inner"' in page_html and titles_in(page_html) == [title]
    moved = requests.get(f"{base}/f/MOVIES/{post_path.group(2)}/", allow_redirects=False, timeout=10)
    assert moved.status_code == 302 and moved.headers["Location"].endswith(f"/f/movies/{post_path.group(2)}/")


def test_time_filter_keeps_only_recent_posts(fresh_sandbox, page: Page):
    base = fresh_sandbox.forum_url
    page.goto(base + "/f/food/top?t=day")
    expect(page.locator("article.submission")).to_have_count(0)
    log_in(page, base)
    page.goto(base + "/submit/food")
    page.get_by_label("Title").fill("Quick pickled onions")
    page.get_by_role("button", name="Create submission").click()
    # The post must be stored before the listing is asked for: a goto right after the click can abort the POST.
    expect(page.locator(".submission__title")).to_have_text("Quick pickled onions")
    page.goto(base + "/f/food/top")
    page.get_by_role("link", name="Past 24 hours").click()
    expect(page).to_have_url(re.compile(r"[?&]t=day"))
    expect(listed_links(page)).to_have_text(["Quick pickled onions"])
    page.get_by_role("link", name="All time").click()
    expect(listed_links(page)).to_have_count(11)


@pytest.mark.parametrize("path", ["/", "/f/books", "/forums", "/submit", "/search?q=coffee", "/user/bookwyrm_ella"])
def test_every_control_has_a_name(sandbox, page: Page, path):
    log_in(page, sandbox.forum_url)
    page.goto(sandbox.forum_url + path)
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('button, input:not([type=hidden]), select, textarea, a[href]')]
              .filter(el => {
                const text = (el.innerText || '').trim();
                const labelled = el.labels && el.labels.length > 0;
                return !text && !labelled && !el.getAttribute('aria-label') && el.tagName !== 'A';
              })
              .map(el => el.outerHTML.slice(0, 80))"""
    )
    assert unnamed == []
    assert page.locator("button:not([type])").count() == 0  # every button says what it does


def test_voting_the_same_way_twice_retracts(fresh_sandbox):
    base = fresh_sandbox.forum_url
    session = requests.Session()
    session.post(base + "/login_check", data={"_username": ACCOUNT.username, "_password": ACCOUNT.password}, timeout=10)
    listing = session.get(base + "/f/music/new", timeout=10).text
    post_id = re.search(r'<form action="/sv/(\d+)" method="post" class="vote">', listing).group(1)
    first = session.post(f"{base}/sv/{post_id}.json", data={"choice": "-1"}, timeout=10).json()
    second = session.post(f"{base}/sv/{post_id}.json", data={"choice": "-1"}, timeout=10).json()
    assert first["choice"] == -1 and second["choice"] == 0
    assert second["netScore"] == first["netScore"] + 1
    assert session.post(f"{base}/sv/{post_id}.json", data={"choice": "2"}, timeout=10).status_code == 400
