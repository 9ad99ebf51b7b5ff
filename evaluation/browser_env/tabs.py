"""The tabs of one episode: which one is current, and each tab's CDP session and network watcher."""

from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError

from evaluation.browser_env.observation import TabInfo
from foundation.page_settle import PageWatcher


class Tabs:
    def __init__(self, context):
        self.context = context
        self.current = None
        self._cdp: dict = {}
        self._watchers: dict = {}
        self._opened: list = []  # tabs opened since the last `take_opened` (pop-ups, target=_blank)
        self._dialogs: list[str] = []  # messages of the dialogs (alert, confirm) since the last `take_dialogs`
        context.on("page", self._on_page)

    def _on_page(self, page) -> None:
        self._watch(page)
        self._opened.append(page)

    def _watch(self, page) -> PageWatcher:
        if page not in self._watchers:
            self._watchers[page] = PageWatcher(page)
            page.on("close", self._forget)
            page.on("dialog", self._on_dialog)
        return self._watchers[page]

    def _on_dialog(self, dialog) -> None:
        """Dismiss it, as the browser would with no listener, and keep its message for who asks."""
        self._dialogs.append(dialog.message)
        try:
            dialog.dismiss()
        except PlaywrightError:
            pass  # the page went away with its dialog

    def take_dialogs(self) -> list[str]:
        taken, self._dialogs = self._dialogs, []
        return taken

    def _forget(self, page) -> None:
        self._watchers.pop(page, None)
        self._cdp.pop(page, None)

    @property
    def pages(self) -> list:
        return list(self.context.pages)

    def open(self):
        """A new blank tab, made current."""
        page = self.context.new_page()
        self._watch(page)
        self.take_opened()
        self.current = page
        return page

    def cdp(self, page=None):
        page = page or self.current
        if page not in self._cdp:
            self._cdp[page] = self.context.new_cdp_session(page)
        return self._cdp[page]

    def watcher(self, page=None) -> PageWatcher:
        return self._watch(page or self.current)

    def has_opened(self) -> bool:
        return any(not page.is_closed() for page in self._opened)

    def take_opened(self) -> list:
        opened, self._opened = [page for page in self._opened if not page.is_closed()], []
        return opened

    def focus(self, index: int) -> None:
        pages = self.pages
        if not 0 <= index < len(pages):
            raise IndexError(f"there is no tab {index}; open tabs are 0 to {len(pages) - 1}")
        self.current = pages[index]
        self.current.bring_to_front()

    def close_current(self) -> None:
        """Close the current tab; the last remaining tab becomes current (a blank one if none is left)."""
        self.current.close()
        pages = self.pages
        if pages:
            self.current = pages[-1]
            self.current.bring_to_front()
        else:
            self.open()

    def ensure_current(self) -> None:
        """After the page closed its own tab (window.close), carry on in the last tab left."""
        if self.current is None or self.current.is_closed():
            pages = self.pages
            if pages:
                self.current = pages[-1]
            else:
                self.open()

    def info(self) -> list[TabInfo]:
        tabs = []
        for index, page in enumerate(self.pages):
            try:
                title = page.title()
            except PlaywrightError:  # a tab in the middle of navigating has no title to give
                title = ""
            tabs.append(TabInfo(index=index, title=title, url=page.url, current=page is self.current))
        return tabs
