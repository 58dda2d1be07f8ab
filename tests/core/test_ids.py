import time

from forethought.domain import handle_for, new_id, space_id_for


def test_ten_thousand_records_in_one_second_get_distinct_handles() -> None:
    start = time.monotonic()
    ids = [new_id() for _ in range(10_000)]
    elapsed = time.monotonic() - start
    assert elapsed < 1.0, "the ids must be made within one second for this test to mean anything"
    assert len(set(ids)) == 10_000
    handles = {handle_for(i) for i in ids}
    assert len(handles) == 10_000
    assert all(len(h) == 8 and h.isalnum() and h == h.lower() for h in handles)


def test_ids_sort_in_creation_order() -> None:
    ids = [new_id() for _ in range(1000)]
    assert ids == sorted(ids)
    assert all(len(i) == 26 for i in ids)


def test_handle_is_a_hash_of_the_whole_id_not_its_prefix() -> None:
    a = "01JABCDEFG" + "0" * 16
    b = "01JABCDEFG" + "0" * 15 + "1"  # same timestamp, last bit different
    assert handle_for(a) != handle_for(b)
    assert handle_for(a) == handle_for(a)


def test_space_ids_are_opaque_and_depend_on_every_part_and_the_secret() -> None:
    secret = b"s" * 32
    base = space_id_for(secret, "acme", "student", "ana")
    assert len(base) == 64 and "ana" not in base
    assert base == space_id_for(secret, "acme", "student", "ana")
    assert base != space_id_for(secret, "acme", "customer", "ana")
    assert base != space_id_for(secret, "acme2", "student", "ana")
    assert base != space_id_for(b"t" * 32, "acme", "student", "ana")
    # Separators inside names cannot make two subjects collide.
    assert space_id_for(secret, "a|b", "c", "d") != space_id_for(secret, "a", "b|c", "d")
