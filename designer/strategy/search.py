"""Search for the best rule of each size, every candidate scored exactly.

For every template of the game's family (:mod:`designer.strategy.templates`)
whose size fits the budget:

1. a small template (at most ``2 * trials`` instances) is searched
   exhaustively;
2. a larger one by optuna's TPE sampler (``trials`` candidates, seeded),
   asked in batches that are scored in parallel;
3. the three best TPE instances are then polished by coordinate descent over
   their integer constants (steps of 1 to 4 on one constant at a time, and
   when those are stuck, one step on two constants at once) until no move
   improves them;
4. rules induced from the optimal policy (deck and dice games,
   :mod:`designer.strategy.induce`: decision lists fitted to the optimal
   decisions, each state weighted by its exact visits and the value at
   stake; a second round weighted by the visits of the first round's best
   rule) are scored, and the best of each size tuned by the same descent
   (each of its constants a slot, :func:`~designer.strategy.templates.template_of`);
5. Zombie Dice only: the slides' rules (long lists that no template
   reaches) are tuned by the same descent, each constant a slot;
6. the arithmetic rules (:mod:`designer.strategy.arith`), a beam over sizes;
7. finally every template is polished again from the best constants of the
   other templates, no larger than itself, whose slots cover all of its own
   but at most one (templates name a kind of constant by the same letter;
   a missing one starts at the low end of its range), which carries a good
   constant found in one shape to the others.

The objective is the exact average win rate against the optimal player
(:class:`~designer.strategy.evaluate.Evaluator`; no simulation). Scoring
runs in a thread pool (joblib's threading backend): the numba kernels
release the GIL, and one optimal table in memory serves every thread.

Resuming: with ``cache=FILE`` every score is appended to a JSON-lines file
as soon as it is known, and a new run reads it back. TPE is seeded and told
results in the order it asked, so a resumed run asks the same candidates
again and finds their scores in the file: an interrupted search continues
where it stopped without evaluating anything twice. The induced rules are a
function of the exact solve alone, so they come back the same too.

Progress: the candidates of every phase are planned before the first is
scored (:class:`_Tally`); a polish, whose rounds stop at the first that
improves nothing, is planned for :data:`POLISH_ROUNDS` rounds of its moves
and its plan is settled when it ends, so the total announced grows when a
phase needs more candidates than planned and shrinks when it needs fewer,
and the count never passes it.
"""

import json
import threading
from dataclasses import dataclass
from pathlib import Path

from designer.errors import DesignError
from designer.strategy import arith as arith_search
from designer.strategy.evaluate import SeatWins, make_evaluator
from designer.strategy.templates import template_of, templates


@dataclass(frozen=True)
class Found(SeatWins):
    """A scored rule: its win at each seat against optimal play."""

    rule: object
    seat_win: tuple
    template: str = ""

    @property
    def size(self):
        return self.rule.size

    @property
    def ops(self):
        return self.rule.ops


def game_key(game):
    """A stable key of the design, for the cache file."""
    if game.family == "rules":
        from designer.strategy.rules_game import game_key as rules_key

        return rules_key(game)
    return json.dumps({"family": game.family, **game.params}, sort_keys=True, default=list)


#: Shapes of each size the arithmetic search extends to the next.
ARITH_BEAM = 8

#: Largest size of the induced rules (a fixed cap: see :func:`_induced`).
INDUCE_SIZE = 8

#: Rounds a polish is planned for before it runs (most stop after 1 to 3).
POLISH_ROUNDS = 2

#: Moves of one polish round per constant (steps of -4..-1 and 1..4).
STEPS = 8


def _polish_plan(tpl, starts=1):
    """Candidates planned for ``starts`` polishes of ``tpl``."""
    return starts * POLISH_ROUNDS * STEPS * len(tpl.ranges)


class _Tally:
    """The search's count of candidates against a total that stays true.

    Each phase plans its candidates (:meth:`plan`) before any is scored;
    :meth:`take` draws on a phase's plan before its candidates are scored
    and grows the total by what the plan lacks, :meth:`close` gives back what
    a phase did not use. So ``done <= total`` at every call of
    ``progress(advance=None, total=None)``, and ``done == total`` once every
    phase is closed.
    """

    def __init__(self, progress):
        self.progress = progress
        self.total = self.done = self.shown = 0
        self.held = {}

    def plan(self, phase, n):
        self.held[phase] = self.held.get(phase, 0) + n
        self.total += n

    def replan(self, phase, n):
        """The phase's plan, now known better, is ``n`` candidates."""
        self.total += n - self.held.get(phase, 0)
        self.held[phase] = n
        self.announce()

    def take(self, phase, n):
        have = self.held.get(phase, 0)
        self.held[phase] = max(0, have - n)
        self.total += max(0, n - have)
        self.announce()

    def scored(self, n):
        self.done += n
        self.total = max(self.total, self.done)  # never needed: take() came first
        self.announce()
        if self.progress is not None and n:
            self.progress(advance=n)

    def close(self, phase):
        self.total -= self.held.pop(phase, 0)
        self.announce()

    def close_all(self):
        for phase in list(self.held):
            self.close(phase)

    def announce(self):
        if self.progress is not None and self.total != self.shown:
            self.shown = self.total
            self.progress(total=self.total)


class _Scorer:
    """Memoised, thread-pooled exact scoring with an optional JSON-lines cache."""

    def __init__(self, evaluator, jobs, cache, tally):
        self.ev = evaluator
        self.jobs = jobs
        self.key = game_key(evaluator.game)
        self.players = evaluator.players
        self.memo = {}
        self.path = Path(cache) if cache else None
        self.tally = tally
        self.evaluated = 0
        self._lock = threading.Lock()
        if self.path is not None and self.path.exists():
            try:
                for n, line in enumerate(self.path.read_text().splitlines(), 1):
                    row = json.loads(line)
                    if not isinstance(row, dict):
                        raise ValueError(f"line {n} is not a JSON object")
                    if row.get("game") == self.key:
                        scores = (tuple(float(v) for v in row["seat_win"]) if "seat_win" in row
                                  else (float(row["win_as_first"]), float(row["win_as_second"])))
                        if len(scores) != self.players:
                            raise ValueError(f"line {n}: {len(scores)} seats' wins, not "
                                             f"{self.players}")
                        if not all(0.0 <= v <= 1.0 for v in scores):
                            raise ValueError(f"line {n}: a win probability outside 0..1")
                        self.memo[str(row["rule"])] = scores
            except (ValueError, KeyError, TypeError) as exc:
                raise DesignError(f"invalid strategy cache {str(self.path)!r}: {exc}") from None
        self.resumed = len(self.memo)

    def _one(self, rule):
        s = self.ev.safe_score(rule)
        # an exact match sums many products: a rule that never wins comes
        # out as -2.2e-16, which the cache would refuse to read back
        return tuple(min(max(float(v), 0.0), 1.0) for v in s["seat_win"])

    def _line(self, text, v):
        """A cache line: two seats as ``win_as_first`` and ``win_as_second``
        (the file's first form, still read), more as ``seat_win``."""
        row = {"game": self.key, "rule": text}
        if len(v) == 2:
            row.update(win_as_first=v[0], win_as_second=v[1])
        else:
            row["seat_win"] = list(v)
        return json.dumps(row)

    def score(self, rules, phase):
        """Each rule's win at each seat (seat 1 first), in order (candidates
        of ``phase``, for the progress)."""
        from joblib import Parallel, delayed

        self.tally.take(phase, len(rules))
        texts = [r.text() for r in rules]
        todo = {}
        for r, t in zip(rules, texts):
            if t not in self.memo and t not in todo:
                todo[t] = r
        if todo:
            items = list(todo.items())
            if self.jobs > 1 and len(items) > 1:
                res = Parallel(n_jobs=self.jobs, backend="threading")(
                    delayed(self._one)(r) for _, r in items)
            else:
                res = [self._one(r) for _, r in items]
            lines = []
            for (t, _), v in zip(items, res):
                self.memo[t] = v
                lines.append(self._line(t, v))
            self.evaluated += len(items)
            if self.path is not None:
                with self.path.open("a") as fh:
                    fh.write("\n".join(lines) + "\n")
        self.tally.scored(len(rules))
        return [self.memo[t] for t in texts]


def _found(rule, v, template):
    return Found(rule, tuple(v), template)


def _exhaustive(tpl, scorer, batch, phase):
    grid = tpl.grid()
    out = []
    for n in range(0, len(grid), batch):
        rules = [tpl.rule(v) for v in grid[n:n + batch]]
        out += [(vals, _found(r, s, tpl.text))
                for vals, r, s in zip(grid[n:n + batch], rules, scorer.score(rules, phase))]
    return out


def _tpe(tpl, scorer, trials, batch, seed, phase):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(20, trials // 3),
                                         multivariate=True)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    dist = {s: optuna.distributions.IntDistribution(lo, hi) for s, lo, hi in tpl.ranges}
    out = []
    done = 0
    while done < trials:
        ts = [study.ask(dist) for _ in range(min(batch, trials - done))]
        vals = [dict(t.params) for t in ts]
        rules = [tpl.rule(v) for v in vals]
        for t, v, r, s in zip(ts, vals, rules, scorer.score(rules, phase)):
            f = _found(r, s, tpl.text)
            study.tell(t, f.win_average)
            out.append((v, f))
        done += len(ts)
    return out


def _moves(tpl, vals, pairs):
    """Descent moves from ``vals``: one constant by -4..4 (``pairs`` False),
    or two constants by one step each (``pairs`` True: a ridge that single
    steps cannot climb, e.g. two constants of one threshold)."""
    ranges = tpl.ranges
    out = []
    if not pairs:
        for s, lo, hi in ranges:
            for step in (-4, -3, -2, -1, 1, 2, 3, 4):
                x = vals[s] + step
                if lo <= x <= hi:
                    out.append({**vals, s: x})
        return out
    for n, (s, lo, hi) in enumerate(ranges):
        for t, lo2, hi2 in ranges[n + 1:]:
            for a in (-1, 1):
                for b in (-1, 1):
                    x, y = vals[s] + a, vals[t] + b
                    if lo <= x <= hi and lo2 <= y <= hi2:
                        out.append({**vals, s: x, t: y})
    return out


def _polish(tpl, scorer, start, batch, phase, max_rounds=30):
    """Coordinate descent from ``start = (values, Found)``: single-constant
    moves while they improve, then pair moves; it stops when neither does."""
    vals, best = start
    out = []
    pairs = False
    for _ in range(max_rounds):
        moves = _moves(tpl, vals, pairs)
        if not moves:
            if pairs:
                break
            pairs = True
            continue
        rules = [tpl.rule(v) for v in moves]
        scored = []
        for n in range(0, len(rules), batch):
            scored += scorer.score(rules[n:n + batch], phase)
        cands = [(v, _found(r, s, tpl.text)) for v, r, s in zip(moves, rules, scored)]
        out += cands
        v, f = max(cands, key=lambda c: c[1].win_average)
        if f.win_average <= best.win_average + 1e-12:
            if pairs:
                break
            pairs = True  # single steps are stuck: try pairs once
            continue
        vals, best = v, f
        pairs = False
    return out


def plan(game, max_size):
    """The templates searched for ``game`` up to ``max_size``."""
    return [t for t in templates(game) if t.size <= max_size]


def _induced(game, ev, scorer, max_size, batch, per_size, phase="induced"):
    """The induced source: decision lists fitted to the optimal policy
    (:mod:`designer.strategy.induce`), ``per_size`` of least loss for each
    size, scored exactly. A second round weighs the states by the visits of
    the best rule of the first (the states a good rule actually reaches,
    where the loss is first-order exact). The best of each size is then
    tuned on the exact win rate by coordinate descent over its constants."""
    from designer.policies.rule import RulePolicy
    from designer.strategy.induce import induced_rules

    found = []
    player = None
    for _ in range(2):
        picked = {}
        # induced to a fixed size whatever max_size is: the lists the beam
        # keeps, and the second round's player, must not depend on it
        for rule, _ in induced_rules(game, ev.solution, max_size=INDUCE_SIZE, player=player):
            lst = picked.setdefault(rule.size, [])
            if len(lst) < per_size:
                lst.append(rule)
        rules = [r for size in sorted(picked) for r in picked[size]]
        for n in range(0, len(rules), batch):
            part = rules[n:n + batch]
            found += [_found(r, v, "induced") for r, v in zip(part, scorer.score(part, phase))]
        player = RulePolicy(game, max(found, key=lambda f: f.win_average).rule)
    scorer.tally.close(phase)
    found = [f for f in found if f.size <= max_size]
    out = list(found)
    tuned = []
    for size in sorted({f.size for f in found}):
        best = max((f for f in found if f.size == size), key=lambda f: f.win_average)
        tpl, vals = template_of(best.rule, game)
        if tpl.ranges:
            tuned.append((tpl, vals, best))
    scorer.tally.replan(phase + " polish", sum(_polish_plan(t) for t, _, _ in tuned))
    for tpl, vals, best in tuned:
        out += [f for _, f in _polish(tpl, scorer, (vals, best), batch, phase + " polish",
                                      max_rounds=8)]
    scorer.tally.close(phase + " polish")
    return out


def search_rules(game, *, max_size=8, trials=120, jobs=2, seed=0, cache=None, evaluator=None,
                 progress=None, extra=(), shapes=None, induce=True, per_size=2, arith=True,
                 max_ops=None):
    """Search every template up to ``max_size``; return the scored candidates.

    Parameters
    ----------
    game : DeckGame, DiceGame or ZombieGame
    max_size : int
        Largest rule size searched.
    trials : int
        TPE candidates per template (templates with at most ``2 * trials``
        instances are searched exhaustively instead).
    jobs : int
        Threads scoring candidates in parallel.
    seed : int
        Seed of the samplers (the search is reproducible).
    cache : path, optional
        JSON-lines file of scores, read back to resume (module docstring).
    evaluator : Evaluator, optional
        Reuse an evaluator (and its optimal solve).
    progress : callable, optional
        ``progress(advance=None, total=None)``: called with ``total`` (the
        candidates planned, polish rounds included: see :class:`_Tally`)
        before the first candidate is scored and again whenever the plan
        changes, and with the number of candidates scored after each batch;
        the count never exceeds the total and ends equal to it.
    extra : iterable of Rule
        Rules scored too (e.g. the classic rules, for comparison).
    shapes : list of Template, optional
        Search these templates instead of the family's list.
    induce : bool
        Also search rules induced from the optimal policy (deck and dice
        games; :mod:`designer.strategy.induce`), ``per_size`` of each size,
        each size's best then tuned on the exact win rate.
    arith : bool
        Also search the arithmetic shapes of :mod:`designer.strategy.arith`
        (a beam over sizes, constants tuned on the exact win rate).
    max_ops : int, optional
        Keep only rules that take at most this many operations per decision
        (:attr:`designer.policies.rules.Rule.ops`); the classic rules given
        in ``extra`` are kept whatever they take.

    Returns
    -------
    (list of Found, dict)
        Every candidate scored (best first), and run statistics
        (``evaluated``, ``resumed``, ``templates``).
    """
    ev = evaluator or make_evaluator(game)
    if game.family == "rules":
        # the engine's match runs on every core itself; the arithmetic
        # shapes are written for the families' max-score
        jobs, arith = 1, False
    # each template keeps its index in the whole list (its sampler's seed), so
    # that what is found at a size never depends on --max-size
    every = shapes if shapes is not None else templates(game)
    plan_ = [t for t in every if t.size <= max_size]
    index = {id(t): n for n, t in enumerate(every)}
    induce = induce and game.family in ("deck", "dice")
    # every phase's candidates planned before the first is scored (see _Tally)
    tally = _Tally(progress)
    tally.plan("given", len(extra))
    classic = []  # Zombie Dice's classic rules, tuned as starts of the search
    if game.family == "zombie":
        for r in extra:
            tpl, _ = template_of(r, game)
            if tpl.ranges and r.size <= max_size:
                classic.append(tpl)
    tally.plan("given polish", sum(_polish_plan(t) for t in classic))
    for n, tpl in enumerate(plan_):
        tally.plan(f"template {n}", 1 if not tpl.ranges
                   else trials if tpl.count > 2 * trials else tpl.count)
        if tpl.ranges and tpl.count > 2 * trials:
            tally.plan(f"template {n} polish", _polish_plan(tpl, min(3, trials)))
    if induce:
        tally.plan("induced", 2 * per_size * (INDUCE_SIZE + 1))
        tally.plan("induced polish", STEPS * (min(max_size, INDUCE_SIZE) + 1))
    if arith:
        tally.plan("arithmetic", arith_search.plan_count(game, max_size, ARITH_BEAM))
    for t in plan_:  # up to 4 starts from the templates whose constants cover t's
        if t.ranges:
            k = min(4, sum(1 for o in plan_ if o is not t and o.ranges
                           and len(set(t.slots) - set(o.slots)) <= 1))
            tally.plan("seeded", k + _polish_plan(t, k))
    tally.announce()
    scorer = _Scorer(ev, jobs, cache, tally)
    batch = max(2, 2 * jobs)
    found = []
    seeded = []
    if extra:
        found += [_found(r, s, "given") for r, s in zip(extra, scorer.score(list(extra), "given"))]
        if game.family == "zombie":
            # Zombie Dice's classic rules are long lists no template reaches:
            # their own constants are tuned as a start of the search
            for f in found[:len(extra)]:
                tpl, vals = template_of(f.rule, game)
                if tpl.ranges and f.size <= max_size:
                    found += [g for _, g in _polish(tpl, scorer, (vals, f), batch,
                                                    "given polish", max_rounds=30)]
    tally.close("given")
    tally.close("given polish")
    for n, tpl in enumerate(plan_):
        phase = f"template {n}"
        if not tpl.ranges:
            cands = [({}, _found(tpl.rule({}), scorer.score([tpl.rule({})], phase)[0],
                                 tpl.text))]
        elif tpl.count <= 2 * trials:
            cands = _exhaustive(tpl, scorer, 4 * batch, phase)
        else:
            cands = _tpe(tpl, scorer, trials, batch, seed + index[id(tpl)], phase)
        tally.close(phase)
        if tpl.ranges and tpl.count > 2 * trials:
            # polish the best few starts: TPE finds basins, descent their floors
            # (an exhaustive grid needs no polish)
            starts = sorted(cands, key=lambda c: -c[1].win_average)[:3]
            for start in starts:
                cands = cands + _polish(tpl, scorer, start, batch, phase + " polish")
            tally.close(phase + " polish")
        found += [f for _, f in cands]
        if cands:
            best = max(cands, key=lambda c: c[1].win_average)
            if best[0]:
                seeded.append((*best, tpl.size))
    if induce:
        found += _induced(game, ev, scorer, max_size, batch, per_size)
    if arith:
        for rule, v, _ in arith_search.search(game, scorer.score, max_size, beam=ARITH_BEAM,
                                              max_ops=max_ops):
            found.append(_found(rule, v, "arithmetic"))
        tally.close("arithmetic")
    # Seeded polish: a template's slots often mean the same as another's (the
    # same letter is the same kind of constant), so the best constants of
    # every template are tried as starts for the others.
    # (a template's seeds come from templates no larger than itself, so that
    # the rules found at a size do not depend on --max-size)
    starts = []
    for tpl in plan_:
        if not tpl.ranges:
            continue
        seeds = sorted((c for c in seeded if c[2] <= tpl.size),
                       key=lambda c: -c[1].win_average)[:4]
        slots = set(tpl.slots)
        low = {k: lo for k, lo, _ in tpl.ranges}
        tried = set()
        for vals, f, _ in seeds:
            # a seed gives every constant but at most one (which starts at the
            # low end of its range: a template that adds one clause to another
            # starts from the other's best)
            missing = slots - set(vals)
            if f.template == tpl.text or len(missing) > 1 or len(slots) - len(missing) < 2:
                continue
            start_vals = tpl.clip({k: vals.get(k, low[k]) for k in slots})
            key = tuple(sorted(start_vals.items()))
            if key in tried:
                continue
            tried.add(key)
            starts.append((tpl, start_vals))
    tally.replan("seeded", sum(1 + _polish_plan(tpl) for tpl, _ in starts))
    for tpl, start_vals in starts:
        rule = tpl.rule(start_vals)
        start = (start_vals, _found(rule, scorer.score([rule], "seeded")[0], tpl.text))
        found.append(start[1])
        found += [g for _, g in _polish(tpl, scorer, start, batch, "seeded", max_rounds=10)]
    tally.close_all()
    if max_ops is not None:
        found = [f for f in found if f.template == "given" or f.rule.ops <= max_ops]
    uniq = {}
    for f in found:
        key = f.rule.text()
        if key not in uniq or (f.template != "given" and uniq[key].template == "given"):
            uniq[key] = f
    ranked = sorted(uniq.values(), key=lambda f: (-f.win_average, f.size, f.rule.text()))
    return ranked, {"evaluated": scorer.evaluated, "resumed": scorer.resumed,
                    "templates": len(plan_),
                    "induced": sum(1 for f in found if f.template == "induced"),
                    "arithmetic": sum(1 for f in found if f.template == "arithmetic")}


def best_by_size(found, max_size):
    """For each size 0..max_size the best rule of AT MOST that size (the
    Pareto front read size by size); None where no rule is that small."""
    out = []
    best = None
    for s in range(max_size + 1):
        here = [f for f in found if f.size == s and f.template != "given"]
        if here:
            top = max(here, key=lambda f: f.win_average)
            if best is None or top.win_average > best.win_average:
                best = top
        out.append(best)
    return out
