"""The one exception type the command line turns into a single clear line."""


class UserError(Exception):
    """Something the user can fix: the message names the thing and the fix, in one line."""
