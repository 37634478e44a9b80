"""``designer play`` of rules games with three or four seats under the
rounds ending (designer/play/rules_seat_rounds.py): the play's own rules,
played by the hard level at every seat and valued position by position,
give back the solve's win of every seat; the values at turn starts are the
solve's rows; a scripted game follows the rules of rounds and tie rounds;
the command plays one."""

import dataclasses
import itertools
import re

import numpy as np
import pytest
from test_play_rules import HOG, MOVE, SMALL_DECK, Keys, RecordingView, play_command

from designer.engine import _seat_rounds_kernels as sk
from designer.engine.game import RulesGame, load_rules_game
from designer.engine.rulesfile import parse_rules
from designer.errors import DesignError
from designer.play import make_player
from designer.play import rules_engine as R
from designer.play.session import Session, check_playable
from designer.play.stats import load

D3 = "goal = 3\n[dice]\nsides = 3\nface.1 = { bust = true }\n"


def _game(text, goal, players, ties):
    rules = parse_rules(text)
    rules = dataclasses.replace(rules, goal=goal, ties=ties)
    return RulesGame(rules, "<test>", (0,) * players, players=players, ending="rounds")


def _ties(game, ties):
    return dataclasses.replace(game, rules=dataclasses.replace(game.rules, ties=ties))


GAMES = {
    "hog-3-replay": lambda: _game(HOG, 6, 3, "replay"),
    "hog-3-earlier": lambda: _game(HOG, 6, 3, "earlier-seat"),
    "deck-3-replay": lambda: _game(SMALL_DECK, 4, 3, "replay"),
    "deck-3-earlier": lambda: _game(SMALL_DECK, 4, 3, "earlier-seat"),
    "d3-4-replay": lambda: _game(D3, 3, 4, "replay"),
    "gro-3": lambda: load_rules_game("great-rolled-ones", goal=5, players=3, ending="rounds"),
}


def _key(st):
    """A position as the rules see it: in a tie round only the round's
    points count, so the banked scores do not tell positions apart."""
    return (None if st.tied else st.units, st.mover, st.s, st.t, st.fresh, st.pending,
            st.tied, st.gains, st.winner)


def flow_values(sol, game, _key=_key):
    """Every seat's win from the opening when every seat plays
    ``sol.best`` and the game goes by :func:`R.step`, by value iteration
    over every position that play reaches (``_key`` tells positions
    apart)."""
    N = game.players
    start = R.new_game(game)
    seen, succ, todo = {_key(start): start}, {}, [start]
    while todo:
        st = todo.pop()
        if st.over:
            continue
        a = sol.best(st)
        m = st.model
        if a[0] == "go":
            nxt = [(float(m.out_prob[o]), R.step(st, a, o)[0])
                   for o in range(m.out_start[a[1]], m.out_start[a[1] + 1]) if m.out_prob[o] > 0]
        else:
            nxt = [(1.0, R.step(st, a)[0])]
        succ[_key(st)] = [(p, _key(n)) for p, n in nxt]
        for _, n in nxt:
            if _key(n) not in seen:
                seen[_key(n)] = n
                todo.append(n)
    V = {k: np.zeros(N) for k in seen}
    for k, st in seen.items():
        if st.over:
            V[k][st.winner] = 1.0
    for _ in range(100_000):
        delta = 0.0
        for k, lst in succ.items():
            v = sum(p * V[n] for p, n in lst)
            delta = max(delta, float(np.abs(v - V[k]).max()))
            V[k] = v
        if delta < 1e-15:
            break
    return V[_key(start)], len(seen)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_hard_level_at_every_seat_wins_what_the_solve_says(name):
    """Played by the play's own rules (rounds, the last seat banking at
    once, final rounds, tie rounds or the earlier seat), the hard level at
    every seat wins each seat's share of the solve, to 1e-12."""
    game = GAMES[name]()
    sol = R.solve(game)
    assert sol.result.unsettled_positions == 0
    got, positions = flow_values(sol, game)
    assert positions > 100
    assert np.abs(got - sol.result.seat_win()).max() < 1e-12


def test_the_tie_rule_changes_the_play():
    """Hog to 6 with three seats: which tie rule is played matters (so the
    two cases above test different play)."""
    a = R.solve(GAMES["hog-3-replay"]()).result.seat_win()
    b = R.solve(GAMES["hog-3-earlier"]()).result.seat_win()
    assert np.abs(a - b).max() > 0.01


def test_turn_starts_equal_the_solves_rows():
    """A fresh turn, valued from the rows its ends read, is the row the
    solve wrote for it: every open tuple and seat, every final round of
    the seats after the first (bar, holders, scores), every tie round."""
    game = _game(D3, 3, 3, "replay")
    sol = R.solve(game)
    r, A, geo = sol.result, sol.A, sol.geo
    N, G, C = r.players, r.goal, r.cap
    err, rows = 0.0, 0
    for S in itertools.product(range(G), repeat=N):
        Sa = np.array(S, dtype=np.int64)
        for m in range(N):
            row = geo[sk.G_OPEN] + m * G ** N + sk.rot(Sa, m, G)
            v = sol.turn(("open", S, m)).value(0, 0, fresh=True)
            err, rows = max(err, abs(v - A[row, 0, m])), rows + 1
    for m in range(1, N):
        for Tm in range(1, 1 << m):
            for B in range(G, C + 1):
                for tail in itertools.product(range(G), repeat=N - m):
                    code = 0
                    for x in tail[1:]:
                        code = code * G + x
                    full = 0
                    for x in tail:
                        full = full * G + x
                    view = ("final", m, B, Tm, tail[0], code)
                    v = sol.turn(view).value(0, 0, fresh=True)
                    row = sk.final_row(geo, m, B, Tm, full)
                    err, rows = max(err, abs(v - A[row, 0, m])), rows + 1
    for t in range(2, N + 1):
        for p in range(1, t):
            for Bg in range(C - G + 1):
                for Tm in range(1, 1 << p):
                    v = sol.turn(("tie", t, p, Bg, Tm)).value(0, 0, fresh=True)
                    row = sol.toff[t, p] + Bg * (1 << p) + Tm
                    err, rows = max(err, abs(v - A[row, 0, p])), rows + 1
    assert rows > 1000 and err < 1e-12


def _session(game, keys, tmp_path, monkeypatch, seed):
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    sol = R.solve(game)
    view = RecordingView()
    s = Session(sol, make_player("hard", sol, game=game), view, level="hard", pause=0.0,
                seed=seed, keys=Keys(keys), first="human")
    return s, view


def replay_rounds(events, seed, players, goal, ties):
    """Replay a game of Piglet in rounds from its rules (a coin: tails, below
    1/2, busts; heads adds 1): seats in order; when a round ends with a score
    at the goal the highest wins, a tie goes to the earlier seat or to a tie
    round of the tied seats where only that round's points count; the last
    to move in a round banks at once where holding wins. Checks every event
    and the position after it; returns ``(winner, tie rounds)``."""
    rng = np.random.default_rng(seed)
    scores, mover, t, rnd, tied, gains, winner = [0] * players, 0, 0, 1, (), [], None
    tie_rounds = 0

    def settle(leaders):
        nonlocal winner, tied, gains, rnd, mover, tie_rounds
        if len(leaders) == 1 or ties != "replay":
            winner = leaders[0]
        else:
            tied, gains, rnd, mover = tuple(leaders), [], rnd + 1, leaders[0]
            tie_rounds += 1

    def end_turn(gained):
        nonlocal mover, t, rnd
        t = 0
        if tied:
            gains.append(gained)
            if len(gains) < len(tied):
                mover = tied[len(gains)]
            else:
                settle([q for q, g in zip(tied, gains) if g == max(gains)])
        elif mover < players - 1:
            mover += 1
        elif max(scores) < goal:
            mover, rnd = 0, rnd + 1
        else:
            settle([q for q in range(players) if scores[q] == max(scores)])

    for event, after in events:
        assert event.seat == mover
        if event.action == "hold":
            scores[mover] += t
            end_turn(t)
        elif rng.random() >= 0.5:
            t += 1
            others = [s for q, s in enumerate(scores) if q != mover]
            if tied:
                wins = mover == tied[-1] and t > max(gains)
            else:
                wins = mover == players - 1 and scores[mover] + t >= goal and \
                    scores[mover] + t > max(others)
            if wins:  # banked: the turn total is spent
                scores[mover] += t
                winner, t = mover, 0
        else:
            assert event.bust
            end_turn(0)
        assert list(after.scores) == scores and after.k == t and after.round == rnd
        assert after.tied == tied and list(after.gains) == gains
        if winner is not None:
            assert after.winner == winner
            return winner, tie_rounds
        assert after.mover == mover
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("ties, seed, want_ties", [("replay", 29, 1), ("replay", 8, 4),
                                                   ("earlier-seat", 7, 0)])
def test_a_scripted_game_plays_rounds_and_tie_rounds(ties, seed, want_ties, tmp_path,
                                                     monkeypatch):
    """Piglet to 3 with three seats against the hard level, replayed from
    the rules (two seeds play tie rounds: one, and four in a row)."""
    game = _ties(load_rules_game("piglet", goal=3, players=3, ending="rounds"), ties)
    s, view = _session(game, ["d", "d", "h"] * 300, tmp_path, monkeypatch, seed)
    assert s.run() == 0
    winner, tie_rounds = replay_rounds(view.events, seed, 3, 3, ties)
    assert tie_rounds == want_ties
    assert view.result["state"].winner == winner and view.result["analysed"]
    for d in view.result["decisions"]:  # the human's decisions valued by the max-n values
        assert d.cost >= -1e-12
    words = [st.ending_words for st, _, _ in view.boards]
    assert all(w.startswith("round ") for w in words)
    if want_ties:
        assert any("a tie round of seats" in w for w in words)


def test_every_seat_count_and_ending_is_playable():
    for players, ending in itertools.product((2, 3, 4), ("race", "rounds")):
        game = load_rules_game("piglet", players=players, ending=ending)
        check_playable(game)
        assert R.new_game(game).mover == 0


def test_the_command_plays_four_seats_in_rounds(tmp_path):
    tail = play_command(tmp_path, ["piglet", "--goal", "3", "--players", "4", "--ending",
                                   "rounds", "--no-pause", "--seed", "2"], "round 1",
                        ["You win", r"Computer \d wins"])
    assert "with 4 players: 1 game" in tail
    key = "rules:rules=piglet,goal=3,komi=0,players=4,ending=rounds"
    assert load(tmp_path / "play-stats.json")["designs"][key]["levels"]["medium"]["games"] == 1


def test_a_deck_game_is_played_as_rules(tmp_path):
    tail = play_command(tmp_path, ["deck", "--bad", "2", "--good", "3", "--goal", "4",
                                   "--players", "3", "--ending", "rounds", "--no-pause",
                                   "--seed", "3"], "round 1", ["You win", r"Computer \d wins"],
                        move=MOVE.replace("roll", "draw"))
    assert "with 3 players: 1 game" in tail


def test_a_solve_too_long_to_wait_for_is_refused_in_one_line():
    from designer.play import rules_seat_rounds

    game = load_rules_game("farkle", players=3, ending="rounds")  # to 10,000: about half a day
    with pytest.raises(DesignError, match=r"playing Farkle with 3 players under the rounds "
                                          r"ending needs its exact solve first: about [\d.]+ "
                                          r"hours \([\d,]+ positions\), over the 10 minutes"):
        rules_seat_rounds.solve(game)
    with pytest.raises(DesignError, match="over the limit of"):  # the table alone: memory
        R.solve(load_rules_game("pig", players=4, ending="rounds"))


def test_the_wait_for_a_long_solve_is_announced():
    from designer.play.rules_engine import solve_seconds
    from designer.play.rules_seat_rounds import solve_estimate
    from designer.report.terminal import estimated

    def _expected(game):  # what the status line adds before the solve
        return estimated(solve_seconds(game))

    game = load_rules_game("pig", players=3, ending="rounds")  # to 100
    seconds = solve_estimate(game)["seconds"]
    assert 5 < seconds < 600
    assert re.fullmatch(r" \(about \d+ (s|min \d\d s), by its estimate\)", _expected(game))
    assert _expected(load_rules_game("pig", players=3, ending="rounds", goal=10)) == ""
    assert _expected(load_rules_game("pig", ending="rounds")) == ""
