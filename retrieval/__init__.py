"""Finding, filtering and downloading tutorial videos."""
