"""Password hashing as the real service does it (PBKDF2-SHA256, 600,000 iterations),
counting every verification so the request log can report it."""
from django.contrib.auth.hashers import PBKDF2PasswordHasher

_checks = 0


def password_checks() -> int:
    return _checks


class CountingPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    algorithm = "pbkdf2_sha256"
    iterations = 600000

    def verify(self, password, encoded):
        global _checks
        _checks += 1
        return super().verify(password, encoded)
