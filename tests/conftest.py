"""Settings shared by the whole suite."""

from hypothesis import settings

# Property tests check behaviour, not speed (speed lives in benchmarks/): on a busy
# machine an example may take longer than Hypothesis's default 200 ms deadline, which
# would then fail a correct test as "flaky".
settings.register_profile("closingbell", deadline=None)
settings.load_profile("closingbell")
