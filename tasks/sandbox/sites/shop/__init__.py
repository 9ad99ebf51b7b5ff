"""The sandbox shop: a small store that mirrors the WebArena shopping site (Magento 2)
in its URLs, form field names, page structure and REST endpoints."""
