"""Password hashes in werkzeug's format, with a cost that suits a sandbox.

The seed needs the same bytes on every build, so its hashes use a salt derived
from the e-mail address; hashes made at run time (new accounts, changed
passwords) get werkzeug's random salt. Both verify with `check_password_hash`.
"""

from __future__ import annotations

import hashlib

from werkzeug.security import check_password_hash, generate_password_hash

# Far below werkzeug's default: seeding and every sign-in in the tests stay fast.
# These accounts guard nothing.
METHOD = "pbkdf2:sha256:20000"
_ITERATIONS = 20000


def hash_password(password: str) -> str:
    return generate_password_hash(password, method=METHOD)


def seed_password_hash(password: str, salt_source: str) -> str:
    """A reproducible hash (fixed salt from `salt_source`) for the seed database."""
    salt = hashlib.sha256(salt_source.encode()).hexdigest()[:16]
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), _ITERATIONS).hex()
    return f"{METHOD}${salt}${digest}"


def verify_password(stored_hash: str, password: str) -> bool:
    return check_password_hash(stored_hash, password)
