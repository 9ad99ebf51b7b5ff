"""The seeded forums: (name, title, description, sidebar markdown)."""

FORUMS: list[tuple[str, str, str, str]] = [
    (
        "AskReddit",
        "Ask the forum",
        "Open questions to everyone: big, small, serious or silly.",
        "Ask a question in the title. Keep it civil, and no personal information.",
    ),
    (
        "books",
        "Books and reading",
        "Talk about what you are reading, what you loved and what you gave up on.",
        "Mark spoilers in your title. Recommendation requests are welcome any day.",
    ),
    (
        "DIY",
        "Do it yourself",
        "Home improvement, repairs and making things with your own hands.",
        "Show your projects, ask for help, and **always switch off the power first**.",
    ),
    (
        "food",
        "Food and cooking",
        "Recipes, kitchen questions and pictures of things you cooked.",
        "Post the recipe when you share a dish. Restaurant reviews go in the weekly thread.",
    ),
    (
        "gaming",
        "Gaming",
        "Video games on every platform: news, impressions and recommendations.",
        "No piracy, no account selling. Tag spoilers for anything released this year.",
    ),
    (
        "history",
        "History",
        "Discussion of the past, from the Bronze Age to the twentieth century.",
        "Cite sources when you make a claim. Nothing from the last 20 years.",
    ),
    (
        "movies",
        "Movies",
        "News, reviews and discussion of films old and new.",
        "Spoilers must be marked. Trailers are welcome; box office threads on Mondays.",
    ),
    (
        "music",
        "Music",
        "Albums, artists, gear and learning to play.",
        "Share what you are listening to. Self-promotion once a month at most.",
    ),
    (
        "science",
        "Science",
        "Research news and questions about how the world works.",
        "Link to the study or a reputable report. Be curious, be kind.",
    ),
    (
        "sports",
        "Sports",
        "Every sport, every league: results, stories and training tips.",
        "Match threads are posted by moderators. Be nice to rival fans.",
    ),
    (
        "technology",
        "Technology",
        "Gadgets, software, the internet and the companies behind them.",
        "No tech support requests in the title only; describe what you tried.",
    ),
    (
        "travel",
        "Travel",
        "Trip reports, itineraries and advice for going places.",
        "Say where and when you are going when you ask for advice.",
    ),
]
