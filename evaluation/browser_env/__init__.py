"""The browser the agent acts in: Chromium pages as observations (accessibility tree, Set-of-Marks), actions and their execution, tabs, logins, early stops and the episode record."""
