"""LearnerBook: the page's token makes a learner of its own behind a shared address, within a
bound per address; anything else counts as the address."""
from __future__ import annotations

from gradstep.app.services.learners import LearnerBook, address_of

A, B, C = "a" * 16, "b" * 16, "c" * 16


def test_tokens_name_learners_up_to_the_bound_then_count_as_the_address():
    book = LearnerBook(per_address=2)
    assert book.key("10.0.0.1", A) == "10.0.0.1|" + A
    assert book.key("10.0.0.1", B) == "10.0.0.1|" + B
    assert book.key("10.0.0.1", C) == "10.0.0.1"           # a third: the address itself
    assert book.key("10.0.0.1", A) == "10.0.0.1|" + A      # the known ones keep theirs
    assert book.key("10.0.0.2", C) == "10.0.0.2|" + C      # the bound is per address
    assert book.count("10.0.0.1") == 2


def test_a_malformed_or_missing_token_counts_as_the_address():
    book = LearnerBook()
    for token in (None, "", "short", "x" * 65, "has space in it!!", "a|b" * 8):
        assert book.key("10.0.0.1", token) == "10.0.0.1"
    assert book.count("10.0.0.1") == 0


def test_learners_idle_for_long_make_room_for_new_ones():
    now = [0.0]
    book = LearnerBook(per_address=1, clock=lambda: now[0])
    assert book.key("10.0.0.1", A).endswith(A)
    now[0] += 20 * 60
    assert book.key("10.0.0.1", B).endswith(B)


def test_the_table_of_addresses_is_bounded():
    book = LearnerBook(per_address=1, max_addresses=3)
    for i in range(10):
        book.key(f"10.0.0.{i}", A)
    assert sum(book.count(f"10.0.0.{i}") for i in range(10)) == 3


def test_address_of_a_key():
    assert address_of("2001:db8::1|" + A) == "2001:db8::1"
    assert address_of("2001:db8::1") == "2001:db8::1"


def test_over_http_each_browser_token_has_its_own_rate_and_a_bad_one_is_the_address():
    from app_testing import fake_client
    with fake_client(rate_limit=1, learners_per_address=2) as c:
        def run(token):
            headers = {"X-Gradstep-Learner": token} if token else {}
            return c.post("/api/run", json={"code": "print(1)"}, headers=headers).status_code
        assert run(A) == 200 and run(B) == 200      # two learners behind one address
        assert run(A) == 429                        # each with its own rate
        assert run(C) == 200                        # a third is over the bound: the address
        assert run("not a token") == 429            # ... which a malformed token also is
        assert run(None) == 429
