"""Password hashing as the real service does it (PBKDF2-SHA256, 600,000 iterations),
counting every verification so the request log can report it.

REFSVC_PASSWORD_ITERATIONS (in the service's environment) sets fewer iterations: the test
runs use it, because a verification costs a third of a second of CPU and awx.awx verifies
the password twice per task (it creates and deletes a token with Basic authentication),
which makes the hashing most of the service's work in a run of awx.awx's targets. Nothing
the API answers depends on it; the benchmarks keep the real service's cost."""
import os

from django.contrib.auth.hashers import PBKDF2PasswordHasher

_checks = 0


def password_checks() -> int:
    return _checks


class CountingPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    algorithm = "pbkdf2_sha256"
    iterations = int(os.environ.get("REFSVC_PASSWORD_ITERATIONS") or 600000)

    def verify(self, password, encoded):
        global _checks
        _checks += 1
        return super().verify(password, encoded)
