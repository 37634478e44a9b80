"""Search for the best rule of each size, every candidate scored exactly.

For every template of the game's family (:mod:`designer.strategy.templates`)
whose size fits the budget:

1. a small template (at most ``2 * trials`` instances) is searched
   exhaustively;
2. a larger one by optuna's TPE sampler (``trials`` candidates, seeded),
   asked in batches that are scored in parallel;
3. the three best TPE instances are then polished by coordinate descent over
   their integer constants (steps of 1 to 4 on one constant at a time)
   until no step improves them;
4. rules induced from the optimal policy (deck and dice games,
   :mod:`designer.strategy.induce`: decision lists fitted to the optimal
   decisions, each state weighted by its exact visits and the value at
   stake; a second round weighted by the visits of the first round's best
   rule) are scored, and the best of each size tuned by the same descent
   (each of its constants a slot, :func:`~designer.strategy.templates.template_of`);
5. Zombie Dice only: the slides' rules (long lists that no template
   reaches) are tuned by the same descent, each constant a slot;
6. finally every template is polished again from the best constants of the
   other templates whose slots it shares (templates name a kind of constant
   by the same letter), which carries a good constant found in one shape to
   the others.

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
"""

import json
import threading
from dataclasses import dataclass
from pathlib import Path

from designer.errors import DesignError
from designer.strategy.evaluate import Evaluator
from designer.strategy.templates import template_of, templates


@dataclass(frozen=True)
class Found:
    """A scored rule."""

    rule: object
    win_as_first: float
    win_as_second: float
    win_average: float
    template: str = ""

    @property
    def size(self):
        return self.rule.size


def game_key(game):
    """A stable key of the design, for the cache file."""
    return json.dumps({"family": game.family, **game.params}, sort_keys=True, default=list)


class _Scorer:
    """Memoised, thread-pooled exact scoring with an optional JSON-lines cache."""

    def __init__(self, evaluator, jobs, cache, progress):
        self.ev = evaluator
        self.jobs = jobs
        self.key = game_key(evaluator.game)
        self.memo = {}
        self.path = Path(cache) if cache else None
        self.progress = progress
        self.evaluated = 0
        self._lock = threading.Lock()
        if self.path is not None and self.path.exists():
            try:
                for n, line in enumerate(self.path.read_text().splitlines(), 1):
                    row = json.loads(line)
                    if not isinstance(row, dict):
                        raise ValueError(f"line {n} is not a JSON object")
                    if row.get("game") == self.key:
                        scores = (float(row["win_as_first"]), float(row["win_as_second"]))
                        if not all(0.0 <= v <= 1.0 for v in scores):
                            raise ValueError(f"line {n}: a win probability outside 0..1")
                        self.memo[str(row["rule"])] = scores
            except (ValueError, KeyError, TypeError) as exc:
                raise DesignError(f"invalid strategy cache {str(self.path)!r}: {exc}") from None
        self.resumed = len(self.memo)

    def _one(self, rule):
        s = self.ev.safe_score(rule)
        return s["win_as_first"], s["win_as_second"]

    def score(self, rules):
        """Scores ``(first, second)`` of each rule, in order."""
        from joblib import Parallel, delayed

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
                lines.append(json.dumps({"game": self.key, "rule": t, "win_as_first": v[0],
                                         "win_as_second": v[1]}))
            self.evaluated += len(items)
            if self.path is not None:
                with self.path.open("a") as fh:
                    fh.write("\n".join(lines) + "\n")
        if self.progress is not None:
            self.progress(len(rules))
        return [self.memo[t] for t in texts]


def _found(rule, v, template):
    return Found(rule, v[0], v[1], (v[0] + v[1]) / 2, template)


def _exhaustive(tpl, scorer, batch):
    grid = tpl.grid()
    out = []
    for n in range(0, len(grid), batch):
        rules = [tpl.rule(v) for v in grid[n:n + batch]]
        out += [(vals, _found(r, s, tpl.text))
                for vals, r, s in zip(grid[n:n + batch], rules, scorer.score(rules))]
    return out


def _tpe(tpl, scorer, trials, batch, seed):
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
        for t, v, r, s in zip(ts, vals, rules, scorer.score(rules)):
            f = _found(r, s, tpl.text)
            study.tell(t, f.win_average)
            out.append((v, f))
        done += len(ts)
    return out


def _polish(tpl, scorer, start, batch, max_rounds=30):
    """Coordinate descent from ``start = (values, Found)``."""
    vals, best = start
    out = []
    for _ in range(max_rounds):
        moves = []
        for s, lo, hi in tpl.ranges:
            for step in (-4, -3, -2, -1, 1, 2, 3, 4):
                x = vals[s] + step
                if lo <= x <= hi:
                    moves.append({**vals, s: x})
        if not moves:
            break
        rules = [tpl.rule(v) for v in moves]
        scored = []
        for n in range(0, len(rules), batch):
            scored += scorer.score(rules[n:n + batch])
        cands = [(v, _found(r, s, tpl.text)) for v, r, s in zip(moves, rules, scored)]
        out += cands
        v, f = max(cands, key=lambda c: c[1].win_average)
        if f.win_average <= best.win_average + 1e-12:
            break
        vals, best = v, f
    return out


def plan(game, max_size):
    """The templates searched for ``game`` up to ``max_size``."""
    return [t for t in templates(game) if t.size <= max_size]


def _induced(game, ev, scorer, max_size, batch, per_size):
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
        for rule, _ in induced_rules(game, ev.solution, max_size=max_size, player=player):
            lst = picked.setdefault(rule.size, [])
            if len(lst) < per_size:
                lst.append(rule)
        rules = [r for size in sorted(picked) for r in picked[size]]
        for n in range(0, len(rules), batch):
            part = rules[n:n + batch]
            found += [_found(r, v, "induced") for r, v in zip(part, scorer.score(part))]
        player = RulePolicy(game, max(found, key=lambda f: f.win_average).rule)
    out = list(found)
    for size in sorted({f.size for f in found}):
        best = max((f for f in found if f.size == size), key=lambda f: f.win_average)
        tpl, vals = template_of(best.rule, game)
        if tpl.ranges:
            out += [f for _, f in _polish(tpl, scorer, (vals, best), batch, max_rounds=8)]
    return out


def search_rules(game, *, max_size=8, trials=120, jobs=2, seed=0, cache=None, evaluator=None,
                 progress=None, extra=(), shapes=None, induce=True, per_size=2):
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
        ``progress(advance=None, total=None)``: called with ``total`` once
        (the planned number of candidates, polish steps excluded) and with
        the number of candidates scored after each batch.
    extra : iterable of Rule
        Rules scored too (e.g. the classic rules, for comparison).
    shapes : list of Template, optional
        Search these templates instead of the family's list.
    induce : bool
        Also search rules induced from the optimal policy (deck and dice
        games; :mod:`designer.strategy.induce`), ``per_size`` of each size,
        each size's best then tuned on the exact win rate.

    Returns
    -------
    (list of Found, dict)
        Every candidate scored (best first), and run statistics
        (``evaluated``, ``resumed``, ``templates``).
    """
    ev = evaluator or Evaluator(game)
    plan_ = [t for t in (shapes if shapes is not None else templates(game)) if t.size <= max_size]
    induce = induce and game.family in ("deck", "dice")
    total = sum(t.count if t.count <= 2 * trials else trials for t in plan_) + len(extra)
    total += 2 * per_size * (max_size + 1) if induce else 0
    if progress is not None:
        progress(total=total)
    scorer = _Scorer(ev, jobs, cache, (lambda n: progress(advance=n)) if progress else None)
    batch = max(2, 2 * jobs)
    found = []
    seeded = []
    if extra:
        found += [_found(r, s, "given") for r, s in zip(extra, scorer.score(list(extra)))]
        if game.family == "zombie":
            # Zombie Dice's classic rules are long lists no template reaches:
            # their own constants are tuned as a start of the search
            for f in found[:len(extra)]:
                tpl, vals = template_of(f.rule, game)
                if tpl.ranges and f.size <= max_size:
                    found += [g for _, g in _polish(tpl, scorer, (vals, f), batch,
                                                    max_rounds=30)]
    for n, tpl in enumerate(plan_):
        if not tpl.ranges:
            cands = [({}, _found(tpl.rule({}), scorer.score([tpl.rule({})])[0], tpl.text))]
        elif tpl.count <= 2 * trials:
            cands = _exhaustive(tpl, scorer, 4 * batch)
        else:
            cands = _tpe(tpl, scorer, trials, batch, seed + n)
        if tpl.ranges and tpl.count > 2 * trials:
            # polish the best few starts: TPE finds basins, descent their floors
            # (an exhaustive grid needs no polish)
            starts = sorted(cands, key=lambda c: -c[1].win_average)[:3]
            for start in starts:
                cands = cands + _polish(tpl, scorer, start, batch)
        found += [f for _, f in cands]
        if cands:
            best = max(cands, key=lambda c: c[1].win_average)
            if best[0]:
                seeded.append(best)
    if induce:
        found += _induced(game, ev, scorer, max_size, batch, per_size)
    # Seeded polish: a template's slots often mean the same as another's (the
    # same letter is the same kind of constant), so the best constants of
    # every template are tried as starts for the others.
    seeds = sorted(seeded, key=lambda c: -c[1].win_average)[:4]
    for tpl in plan_:
        if not tpl.ranges:
            continue
        slots = set(tpl.slots)
        tried = set()
        for vals, f in seeds:
            if f.template == tpl.text or not slots <= set(vals):
                continue
            start_vals = tpl.clip({k: vals[k] for k in slots})
            key = tuple(sorted(start_vals.items()))
            if key in tried:
                continue
            tried.add(key)
            rule = tpl.rule(start_vals)
            start = (start_vals, _found(rule, scorer.score([rule])[0], tpl.text))
            found.append(start[1])
            found += [g for _, g in _polish(tpl, scorer, start, batch, max_rounds=10)]
    uniq = {}
    for f in found:
        key = f.rule.text()
        if key not in uniq or (f.template != "given" and uniq[key].template == "given"):
            uniq[key] = f
    ranked = sorted(uniq.values(), key=lambda f: (-f.win_average, f.size, f.rule.text()))
    return ranked, {"evaluated": scorer.evaluated, "resumed": scorer.resumed,
                    "templates": len(plan_),
                    "induced": sum(1 for f in found if f.template == "induced")}


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
