"""No observation carries another seat's hidden cards.

Two deals differ only in an opponent's hidden cards: one card of its hand is
swapped with the bottom card of the stock. Both worlds then play the same
public moves (each move legal in both, its public text the same in both)
until the hand ends. At every step the observing seat's tensors (every
encoder, so the PettingZoo, Gymnasium and OpenSpiel tensors) and its
OpenSpiel strings and tensors must be identical in the two worlds, while
the opponent's own view differs (so the swap is not a no-op).
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from rummylab.rl.encoders import make_encoder  # noqa: E402
from rummylab.rl.specs import spec_of  # noqa: E402

CASES = [
    ("gin", 2), ("gin3", 3), ("three_thirteen", 2), ("three_thirteen", 3),
    ("three_thirteen", 4), ("manipulation", 2), ("manipulation", 3), ("manipulation", 5),
]
ROLES = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]  # box, captain, sitter


def _pack(game, n):
    d = spec_of(game).decks(n)
    cards = [c for _ in range(d) for c in range(52)]
    return cards + ([52] * d if game == "manipulation" else [])


def _owner_positions(game, n, setup, hidden_seat):
    """Deck positions dealt to ``hidden_seat`` in the first hand."""
    if game in ("gin", "gin3"):
        if game == "gin3":
            box, captain, _ = ROLES[setup]
        else:
            box, captain = setup, 1 - setup
        return [i for i in range(20) if (captain if i % 2 == 0 else box) == hidden_seat]
    size = 3 if game == "three_thirteen" else 10
    return [i for i in range(size * n) if (setup + 1 + i) % n == hidden_seat]


def _hidden_seat(game, n, setup, seat):
    """A seat whose cards ``seat`` cannot see."""
    if game == "gin3":
        box, captain, sitter = ROLES[setup]
        return box if seat in (captain, sitter) else captain
    return (seat + 1) % n


def _twin_decks(game, n, setup, seat, rng):
    deck = _pack(game, n)
    rng.shuffle(deck)
    q = _hidden_seat(game, n, setup, seat)
    for i in _owner_positions(game, n, setup, q):
        if deck[i] != deck[-1]:
            other = list(deck)
            other[i], other[-1] = other[-1], other[i]
            return deck, other, q
    raise AssertionError("no card to swap")


def _pick(game, common, rng):
    # Manipulation's "meld best" usually shows different cards in the two
    # worlds, which ends the comparison: draw and pass keep it going longer
    if game == "manipulation" and len(common) > 1 and rng.random() < 0.8:
        common = [a for a in common if a != 3] or common
    return common[rng.randrange(len(common))]


def _engine_pair(game, n, setup, decks):
    spec = spec_of(game)
    kw = {}
    if game == "gin3":
        box, captain, sitter = ROLES[setup]
        kw["cut"] = [{box: 12, captain: 11, sitter: 10}]
    else:
        kw["first_dealer"] = setup
    return [spec.new_state(n, {}, 1, decks=[d], **kw) for d in decks]


@pytest.mark.parametrize(("game", "n"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_encoders_see_no_hidden_cards(game, n):
    rng = random.Random(f"{game}{n}")
    enc = make_encoder(game, n, dict(spec_of(game).new_state(n, {}, 0).options))
    compared = 0
    for trial in range(6):
        setup = rng.randrange(6 if game == "gin3" else n)
        seat = trial % n
        a_deck, b_deck, q = _twin_decks(game, n, setup, seat, rng)
        a, b = _engine_pair(game, n, setup, [a_deck, b_deck])
        a.take_events()
        b.take_events()
        assert (enc.encode(a.observation(q)) != enc.encode(b.observation(q))).any()
        for _ in range(60 if game != "manipulation" else 12):
            assert (enc.encode(a.observation(seat)) == enc.encode(b.observation(seat))).all()
            va, vb = a.observation(seat), b.observation(seat)
            assert va.to_dict() == vb.to_dict()  # the engine's own view too
            compared += 1
            if a.current_player() != b.current_player():
                break  # the hidden cards changed who must decide (Manipulation)
            common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            if not common:
                break
            action = _pick(game, common, rng)
            a.apply_action(action)
            b.apply_action(action)
            ea, eb = a.take_events(), b.take_events()
            if [e.get("action") for e in ea] != [e.get("action") for e in eb]:
                break  # the public history differs from here on
            if any(e["type"] == "result" for e in ea):
                break  # the hands are shown: no longer hidden
    assert compared >= 10


SPIEL = [("python_rummylab_gin", "gin", 2), ("python_rummylab_gin3", "gin3", 3),
         ("python_rummylab_three_thirteen(players=3)", "three_thirteen", 3),
         ("python_rummylab_manipulation(players=2)", "manipulation", 2)]


@pytest.mark.parametrize(("name", "game", "n"), SPIEL, ids=[s[0] for s in SPIEL])
def test_openspiel_views_see_no_hidden_cards(name, game, n):
    pyspiel = pytest.importorskip("pyspiel")
    import rummylab.rl  # noqa: F401

    g = pyspiel.load_game(name)
    rng = random.Random(name)
    compared = 0
    for trial in range(4 if game != "manipulation" else 6):
        setup = rng.randrange(6 if game == "gin3" else n)
        seat = trial % n
        a_deck, b_deck, q = _twin_decks(game, n, setup, seat, rng)
        a, b = g.new_initial_state(), g.new_initial_state()
        for state, deck in ((a, a_deck), (b, b_deck)):
            state.apply_action(setup)
            for card in deck:
                state.apply_action(card)
        assert a.information_state_string(q) != b.information_state_string(q)
        for _ in range(50 if game != "manipulation" else 10):
            for fn in ("information_state_string", "observation_string",
                       "information_state_tensor", "observation_tensor"):
                assert getattr(a, fn)(seat) == getattr(b, fn)(seat), fn
            compared += 1
            if a.is_terminal() or b.is_terminal() or a.is_chance_node():
                break
            if a.current_player() != b.current_player():
                break
            common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            if not common:
                break
            action = _pick(game, common, rng)
            hands_before = a.engine.hand_number if game in ("gin", "gin3") else a.engine.round
            a.apply_action(action)
            b.apply_action(action)
            la, lb = (s.information_state_string(seat).splitlines()[-1] for s in (a, b))
            if la != lb or a.is_terminal() or (a.engine.hand_number if game in ("gin", "gin3")
                                                else a.engine.round) != hands_before:
                break  # public texts differ, or the hand ended and was shown
    assert compared >= 8
