"""One home for model access: chat client, call cache, concurrency, accounting, embeddings."""
