"""The expected captain: it simulates its agent, known or a stranger, over partner matrices
heard as families of sources (with its helpers: families, word frequency, voices)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from board import ASSASSIN, NEUTRAL, Board, Color
from common import zipf
from models.captains import Captain, MarginCaptain
from models.chances import pick_chances, softmax, strayed
from models.sight import CLEAR_RANK, Sight
from models.situation import HintChoice, Situation
from models.weights import Weights

# Below what value of its best own hint an `ExpectedCaptain` also simulates its partners' hints.
WIDEN_SPARSE, WIDEN_DENSE = 0.0, -1.0


@dataclass(frozen=True)
class CaptainSettings:
    """How an `ExpectedCaptain` plays: the values it ships with. Each was measured; the decision
    records (docs/decisions/) say on what, and name the commits that had the options tried and
    dropped (reader-family switches, rarity priors, the worst voice's danger: 0027, 0029)."""

    max_count: int = 4
    temperature: float = 0.02          # an unknown agent's noise: doubled on evidence, `doublings` times
    twin_temperature: float = 0.0005   # a twin's: it reads as the captain does
    doublings: int = 2
    doubling_cost: float = 0.1         # log-likelihood a doubling must gain
    samples: int = 96
    candidates: int = 200              # hints simulated, best by a quick margin score
    pair_candidates: int = 0           # ... and these, best by it for two cards
    neutral_cost: float = 0.3          # own cards a miss costs when racing an opponent
    opponent_cost: float = 1.0
    assassin_cost: float = 8.0
    endgame_assassin_cost: float = 12.0   # alone, with `endgame` own cards or fewer left (0018)
    endgame: int = 2
    caution: float = 0.5               # 1: a hint is worth its worst voice's score; 0: their mean
    widen_below: float | None = None   # None: by how dense the matrix is (0009)
    reading_temperature: float = 0.05  # how partners' readings are scored against the agent's picks
    slip: float = 0.1                  # the chance of a pick no reading foresees
    lapse: float = 0.0                 # the share of the agent's turns read `flat` times as sharply
    flat: float = 1.0                  # (the model of people's calibration, `Fit.lapse`)
    assassin_gap: int = 3              # every voice ranks the assassin below this many (0027)
    commonness: float = 0.0            # own cards a hint's Zipf unit is worth: near equals, the commoner
    count_bonus: float = 0.0           # own cards each card past the first is worth beyond its chance
    bonus_cards: int = 2               # ... up to this many cards past the first
    clear_rank: int = CLEAR_RANK       # ... each among the hint's this many nearest card words
    dare_behind: bool = False          # racing and behind (`behind`), later cards need only be evoked
    seed: int = 0


# A hint word this frequent (Zipf, wordfreq's) is one every person knows: people's clues have a
# median of 4.76; `CaptainSettings.commonness` prices each Zipf unit below it.
COMMON_ZIPF = 5.0

# A card aimed at and missed once is aimed at again only as a hint's first card; this often, only
# by a one-card hint that every reading ranks first; no card is aimed at by more than `MAX_AIMS`
# hints a game; a hint that aims again at a missed set of cards is passed over for the next best,
# `MOVE_ON_TRIES` times at most.
GIVE_UP_AFTER, MAX_AIMS, MOVE_ON_TRIES = 2, 3, 4

# The captain that plans for a person (docs/decisions/0040-hints-a-person-sees.md): its partner
# is the model of people read at its fitted softmax (calibrated, not sharper), and it asks for
# three cards at most, when every reading a person may take sees all three (models/sight.py),
# which also keeps the assassin far from the targets in each (not a rank among the others: a
# clear hint may have the assassin second of the cards it barely touches).
# Each card past the first is worth `count_bonus` more than the model of people's chance of it,
# as every reading a person may take puts it above every card not the team's; near equals, the
# commoner word (decision 0047). Behind in a race, a hint's later cards need only be evoked
# (decision 0059).
FOR_PEOPLE = CaptainSettings(max_count=3, temperature=0.02, assassin_gap=0, count_bonus=0.3,
                             commonness=0.05, dare_behind=True, pair_candidates=100)


# Which source family each matrix reads: matrices of one family are one voice, not several.
# A name not listed is a family of its own (SBERT; a user's matrix).
FAMILIES: dict[str, str] = {
    "word_collocations": "corpus", "sentence_collocations": "corpus", "fasttext": "corpus",
    "association": "norms", "eat": "norms",
    "direct": "mixed", "double_link": "mixed", "combined": "mixed",
}


def family_of(weights: Weights) -> str:
    """The source family of a matrix (`FAMILIES`), its own name when it has none listed."""
    return FAMILIES.get(weights.name, weights.name)


def family_members(partners: Sequence[Weights]) -> np.ndarray:
    """Families × partners, 1 where the partner belongs to the family (families in first-seen order)."""
    names = list(dict.fromkeys(family_of(p) for p in partners))
    return np.array([[family_of(p) == f for p in partners] for f in names], dtype=np.float64)


def voices(values: np.ndarray, fatal: np.ndarray, members: np.ndarray, belief: np.ndarray,
           speaks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Partners' simulated values and fatal chances (partners × hints × counts) heard as the
    voices of their families (`members`, families × partners): within a family, the mean of
    its partners that speak on a hint (`speaks`, partners × hints), weighted by `belief`;
    between families, equal weights, each family's its mean belief. Returns, per hint and
    count, the worst family's value, the families' mean value and their mean fatal chance.
    A hint no partner speaks on is heard from all of them."""
    speaks = speaks | ~speaks.any(axis=0)                              # (P, n)
    heard = members[:, :, None] * (belief[:, None] * speaks)[None]     # (F, P, n)
    share = heard.sum(axis=1)                                          # (F, n)
    present = share > 0
    within = heard / np.where(present, share, 1.0)[:, None]
    family_values = np.einsum("fpn,pnk->fnk", within, values)
    family_fatal = np.einsum("fpn,pnk->fnk", within, fatal)
    weight = share / np.maximum(np.einsum("fp,pn->fn", members, speaks.astype(float)), 1.0)
    weight /= weight.sum(axis=0)                                        # (F, n)
    mean = np.einsum("fn,fnk->nk", weight, family_values)
    danger = np.einsum("fn,fnk->nk", weight, family_fatal)
    worst = np.where(~present[..., None], np.inf, family_values).min(axis=0)
    return worst, mean, danger


def best_of(score: np.ndarray, n: int) -> np.ndarray:
    """The indices of the `n` highest finite scores (fewer when fewer are finite), in no order."""
    n = min(n, int(np.isfinite(score).sum()))
    return np.argpartition(-score, n - 1)[:n] if n else np.array([], dtype=int)


class ExpectedCaptain(Captain):
    """Choose the hint with the most own cards expected from its agent, known or unknown.

    The agent is simulated: it ranks the face-down cards by its own weights
    plus Gumbel noise of scale `temperature` (a Plackett-Luce softmax agent)
    and guesses down that ranking until it misses or has made `count` guesses.
    A hint's value is the expected number of own cards revealed, less the
    expected cost of the card that ends the turn: a neutral, an opponent's
    card, or the assassin, which loses the game. Each hint is scored under
    every partner matrix; it keeps a blend of its worst and its mean score
    (`caution`), so it must work for all of them, and prices the assassin at
    their mean chance of it. As the game goes on it learns which partners read
    hints as its agent does (`observe`) and weighs them more in the mean; and
    how noisy its agent is, doubling `temperature` up to `doublings` times,
    each doubling needing `doubling_cost` more log-likelihood, so that it
    turns more careful only on evidence.
    With no partners its agent is its twin, reading the captain's own matrix
    greedily, so it is simulated alone with the small `twin_temperature`: the
    captain knows what its twin will do and asks for more. The captain dares
    more when behind and plays safer when ahead.

    A team that plays `alone` (single-team mode, as in the Codenames AI
    Competition, scored by the hints a win takes) races no one, and every
    hint costs one turn however it ends: a miss costs nothing unless it loses
    the game, so it asks for as many cards as the assassin's risk allows.

    Alone, with `endgame` own cards or fewer left, the assassin costs
    `endgame_assassin_cost`: a hint then points at one card or two anyway,
    so care costs few cards, and by then the captain has learnt its agent.
    Racing, the care would cost turns that the opponent uses.

    With partners its agent is a stranger (`strangers`): the partners are heard as families
    of sources, one voice each (`voices`); a partner silent on a hint abstains rather than echo
    its backoff; and a count is given only if every reader that knows the hint ranks that many
    own cards first and the assassin below its `assassin_gap` strongest other cards (`reach`).

    It simulates the `candidates` hints that its own matrix likes best; when
    none is worth `widen_below` cards, it also simulates those its partners
    like best on average, as a hard card may need a hint its matrix misses.
    By default a matrix silent on some hints widens as soon as nothing of its
    own is worth a card (0); one that knows every hint, whose judgement the
    partners' consensus rarely betters, only when all its own risk more than a
    card (-1).

    Its numbers are its `settings` (`CaptainSettings`); `changes` override some of them, as
    the bench's specs (`expected:caution=0.3`) and the tuning scripts do.
    """

    name = "expected"

    def __init__(self, weights: Weights, partners: Sequence[Weights] = (), alone: bool = False, *,
                 settings: CaptainSettings = CaptainSettings(), sight: Sight | None = None, **changes):
        settings = replace(settings, **changes)
        super().__init__(weights, partners, alone, max_count=settings.max_count)
        self.settings, self.sight = settings, sight
        self.bold: Sight | None = None   # `daring`'s sight, made when first needed
        self.partners = list(partners) or [weights]
        self.temperature = settings.temperature if partners else settings.twin_temperature
        # A twin's noise is known; an unknown agent's is learnt (`observe`) among these.
        self.noises = settings.temperature * 2.0 ** np.arange(settings.doublings + 1 if partners else 1)
        self.noise_prior = -settings.doubling_cost * np.arange(len(self.noises))
        self.noise_evidence = np.zeros(len(self.noises))
        dense = WIDEN_DENSE if weights.knows_every_hint else WIDEN_SPARSE
        self.widen_below = dense if settings.widen_below is None else settings.widen_below
        self.prefilter = MarginCaptain(weights, margin=-1.0, max_count=settings.max_count)
        # How the partners' readings have foreseen the agent's guesses: log-likelihoods.
        self.evidence = np.zeros(len(self.partners))
        # With partners the agent is a stranger: the readers are heard as families (`voices`),
        # each reading a hint itself, and a count is given only if every one reaches it (`reach`).
        self.strangers = bool(partners)
        self.members = family_members(self.partners) if self.strangers else np.eye(len(self.partners))
        self.assassin_gap = settings.assassin_gap if self.strangers else 0
        # Moving on: how often each own card was aimed at, and missed; the sets missed.
        self.last: HintChoice | None = None
        self.aims: dict[str, int] = {}
        self.tries: dict[str, int] = {}
        self.missed_sets: set[frozenset[str]] = set()

    def observe(self, hint: str, face_down: Sequence[str], guesses: Sequence[str]) -> None:
        """Learn from what the agent turned over for a hint, in order, among the cards face
        down when it was given. Each partner gains the likelihood of those guesses under a
        softmax of its reading; each simulation temperature gains their likelihood under
        the believed mix of partners, and the likeliest becomes the captain's. The hint's
        targets that were not turned over count a try each, and a set missed is not aimed at again."""
        if self.last is not None and self.last.hint.word == hint:
            missed = [t for t in self.last.targets if t not in guesses]
            for target in missed:
                self.tries[target] = self.tries.get(target, 0) + 1
            if missed:
                self.missed_sets.add(frozenset(self.last.targets))
        words = list(face_down)
        picks = [words.index(word) for word in guesses]
        rows = np.stack([p.hint_row(hint, words) for p in self.partners])
        settings = self.settings
        if len(self.noises) > 1:
            belief = self.belief()
            for k, noise in enumerate(self.noises):
                mix = pick_chances(rows / noise, picks) @ belief[:, None]
                self.noise_evidence[k] += self.log_likelihood(mix, len(words)).sum()
            self.temperature = self.noises[np.argmax(self.noise_evidence + self.noise_prior)]
        chances = pick_chances(rows / settings.reading_temperature, picks)
        self.evidence += self.log_likelihood(chances, len(words)).sum(axis=0)

    def carry_on(self, earlier: ExpectedCaptain) -> ExpectedCaptain:
        """This captain, taking up the game where `earlier` left it: the hint it gave last (so that
        the agent's picks for it count as tries), how often each card was aimed at and missed, the
        sets missed. What `earlier` learnt of its partners is not carried: they are not this one's."""
        self.last = earlier.last
        self.aims, self.tries = dict(earlier.aims), dict(earlier.tries)
        self.missed_sets = set(earlier.missed_sets)
        return self

    def log_likelihood(self, chances: np.ndarray, face_down: int) -> np.ndarray:
        """The log-likelihood of each pick (picks × readings), given each reading's chances."""
        left = face_down - np.arange(len(chances))[:, None]
        # Any agent may pick a card that no reading puts first; one surprise must not
        # silence a partner for the rest of the game.
        return np.log((1 - self.settings.slip) * chances + self.settings.slip / left)

    def belief(self) -> np.ndarray:
        """Each partner's weight in the mean: how well its reading has foreseen the agent's
        guesses this game (equal before any)."""
        return softmax(self.evidence)

    def risk(self, board: Board, team: Color) -> float:
        """A multiplier on costs: below 1 when behind or when the opponent is about to win."""
        if self.alone:
            return 1.0
        own, opponent = board.remaining(team), board.remaining(team.other)
        if opponent <= 1 or own - opponent >= 3:
            return 0.5
        if own - opponent >= 1:
            return 0.8
        if opponent - own >= 2:
            return 1.3
        return 1.0

    def score(self, situation: Situation, board: Board) -> np.ndarray:
        table = np.full((len(situation.legal), self.depth(situation)), -np.inf)
        self.reached = np.zeros(len(situation.legal))   # per hint: the count all readers reach
        self.seen = np.ones(table.shape, dtype=bool)    # per hint and count: a person sees it (`sight`)
        self.clear = np.zeros(table.shape, dtype=bool)  # ... and each target is a first thought (`sight`)
        own = self.shortlist(situation, board)
        self.simulate(situation, board, own, table)
        if len(self.partners) > 1 and table.max() < self.widen_below:
            wider = self.shortlist(situation, board, views=[p.board_matrix(situation.words)
                                                             for p in self.partners])
            self.simulate(situation, board, np.setdiff1d(wider, own), table)
        # The bonus rests on the sight rule: a count every reading sees, of cards the hint clearly
        # brings to mind (`clear`); none without the rule.
        settings = self.settings
        extra = np.minimum(np.arange(table.shape[1]), settings.bonus_cards)
        table += settings.commonness * self.hint_zipf[:, None] + settings.count_bonus * extra * self.clear
        return self.agreed(table) if self.strangers else table

    @functools.cached_property
    def hint_zipf(self) -> np.ndarray:
        """Each hint's Zipf frequency in English (`zipf`), capped at `COMMON_ZIPF`: a word every
        person knows is no clearer for being commoner still."""
        return np.minimum(zipf(self.weights.hints), COMMON_ZIPF)

    def agreed(self, table: np.ndarray) -> np.ndarray:
        """The table without the counts that some reader speaking on the hint does not reach
        (`reached`) or a person would not see (`seen`); failing that, without those a person
        would not see; unchanged when that leaves no hint, as a hint must still be given."""
        k = np.arange(1, table.shape[1] + 1)
        for keep in ((k <= self.reached[:, None]) & self.seen, self.seen):
            kept = np.where(keep, table, -np.inf)
            if np.isfinite(kept).any():
                return kept
        return table

    def simulate(self, situation: Situation, board: Board, chosen: np.ndarray,
                 table: np.ndarray) -> None:
        """Fill the chosen hints' rows of `table` with their value over the partners."""
        if len(chosen) == 0:
            return
        risk = self.risk(board, situation.team)
        readings = [self.expected(situation, partner, chosen, risk) for partner in self.partners]
        values = np.stack([value for value, _, _ in readings])
        fatal = np.stack([chance for _, chance, _ in readings])
        sure = np.stack([reach for _, _, reach in readings])             # (partners, n)
        # The costs of a miss that ends the turn are blended between the worst voice (a family
        # of partners) and the mean, weighted by what each has foreseen of the agent (`caution`).
        # A card that loses (`losing`) is priced at that mean, unblended: a partner silent on a
        # hint guesses at random in the simulation, so the worst voice's chance is about one in
        # the cards left for most hints, a floor that hides the ones informed voices see as fatal.
        speaks = self.speaking(situation, chosen)                       # (partners, n)
        worst, mean, danger = voices(values, fatal, self.members, self.belief(), speaks)
        caution = self.settings.caution
        table[chosen] = (caution * worst + (1 - caution) * mean
                         - self.assassin_price(situation) * risk * danger)
        self.reached[chosen] = np.where(speaks | ~speaks.any(axis=0), sure, np.inf).min(axis=0)
        if self.sight:
            sight = self.daring(board, situation.team)
            self.seen[chosen] = self.counts_seen(situation, chosen, sight)[:, :table.shape[1]]
            clear = self.first_thoughts(situation, chosen)[:, :table.shape[1]]
            self.clear[chosen] = self.seen[chosen] & clear

    def behind(self, board: Board, team: Color) -> bool:
        """Racing, whether the team to play is behind: two own cards left or more beyond the
        opponent's (one is the tempo of playing now, as the starting team's 9 to 8), or the
        opponent one card from winning."""
        own, opponent = board.remaining(team), board.remaining(team.other)
        return not self.alone and (own - opponent >= 2 or opponent <= 1)

    def daring(self, board: Board, team: Color) -> Sight:
        """The sight a count must pass: behind (`behind`), with `dare_behind`, a hint's later cards
        need only be evoked, not first thoughts (the rule before 0058)."""
        if not (self.settings.dare_behind and self.behind(board, team)):
            return self.sight
        if self.bold is None:
            self.bold = self.sight.changed(claimed=None)
        return self.bold

    def counts_seen(self, situation: Situation, chosen: np.ndarray, sight: Sight) -> np.ndarray:
        """For each chosen hint and count, whether a person sees its targets whichever way they
        read it (`Sight.counts`, in the model of people's order); a card missed once only as the
        hint's first card, and a card missed twice only as the single card of a hint that every
        reading, the model's too, ranks first."""
        own = situation.own
        order = self.order(situation, chosen)
        seen = sight.counts(situation.words, chosen, order, own, self.losing(situation))
        tries = np.array([self.tries.get(w, 0) for w in situation.words])[own][order]   # (n, own)
        if not tries.any():
            return seen
        k = np.arange(1, seen.shape[1] + 1)
        # A person who passed over a card as a hint's second did not see it there: it comes back
        # first or not at all (FLOWER 2, then JEWELRY 3, each with ROBE last).
        later = tries > 0
        later[:, 0] = False
        upto = np.where(later.any(axis=1), later.argmax(axis=1), tries.shape[1])
        allowed = k <= upto[:, None]
        top = np.flatnonzero(own)[order[:, 0]]
        chased = tries[:, 0] >= GIVE_UP_AFTER
        if chased.any():
            clear = (situation.weights[chosen].argmax(axis=1) == top) \
                & self.sight.first(situation.words, chosen, top)
            allowed &= ~chased[:, None] | ((k == 1) & clear[:, None])
        return seen & allowed

    @staticmethod
    def order(situation: Situation, chosen: np.ndarray) -> np.ndarray:
        """For each chosen hint, its own cards (indices among them) in the model of people's order,
        the likeliest first: the order a count takes its targets in."""
        return np.argsort(-situation.weights[chosen][:, situation.own], axis=1, kind="stable")

    def first_thoughts(self, situation: Situation, chosen: np.ndarray) -> np.ndarray:
        """For each chosen hint and count, whether the hint clearly brings each of its targets
        (in the model of people's order) to mind (`clear_rank`), each reading of meaning the
        sight's rule names vouching for a card only meaning links (`Sight.vouched`)."""
        return self.sight.first_thoughts(situation.words, chosen, self.order(situation, chosen),
                                         situation.own, self.settings.clear_rank)

    def give_hint(self, board: Board, team: Color, given: Sequence[str] = ()) -> HintChoice:
        """The best hint that does not aim again at a set of cards its agent missed (but in the
        endgame, when the last cards may need another try)."""
        refused: list[str] = []
        for _ in range(MOVE_ON_TRIES):
            choice = super().give_hint(board, team, [*given, *refused])
            if self.late(board, team) or frozenset(choice.targets) not in self.missed_sets:
                break
            refused.append(choice.hint.word)
        self.last = choice
        for target in choice.targets:
            self.aims[target] = self.aims.get(target, 0) + 1
        readers = self.agreement(board, choice)
        if self.sight:
            seen = self.sight.sees(choice.hint.word, board.unrevealed_words(), choice.targets)
            readers += tuple(seen.items())
        return replace(choice, readers=readers)

    def late(self, board: Board, team: Color) -> bool:
        """The endgame: few enough own cards left that every one is a target again."""
        return board.remaining(team) <= self.settings.endgame

    def situation(self, board: Board, team: Color, given: Sequence[str] = ()) -> Situation:
        """As the base sees it, but an own card that `MAX_AIMS` hints aimed at stops being a
        target (it is seen as a bystander, so no hint aims at it); and, for a captain without
        `sight` (which aims at a card missed twice only with a clear one-card hint), one that
        two hints missed, until the endgame."""
        situation = super().situation(board, team, given)

        def given_up(word: str) -> bool:
            if self.aims.get(word, 0) >= MAX_AIMS:
                return True
            return not self.sight and not self.late(board, team) and self.tries.get(word, 0) >= GIVE_UP_AFTER

        colors = [NEUTRAL if c is team and given_up(w) else c
                  for w, c in zip(situation.words, situation.colors, strict=True)]
        if team not in colors:   # every own card given up: all are targets again
            return situation
        return replace(situation, colors=colors)

    def agreement(self, board: Board, choice: HintChoice) -> tuple[tuple[str, bool], ...]:
        """Each family of partners that reads the hint itself (not through a backoff), and
        whether every such partner ranks the targets above every other face-down card."""
        words = board.unrevealed_words()
        targets = np.isin(words, choice.targets)
        verdicts: dict[str, bool] = {}
        for partner in self.partners:
            if partner.backoff is not None and not partner.own_row(choice.hint.word, words).any():
                continue
            row = partner.hint_row(choice.hint.word, words)
            agrees = bool(targets.all() or row[targets].min() > row[~targets].max())
            family = family_of(partner)
            verdicts[family] = verdicts.get(family, True) and agrees
        return tuple(verdicts.items())

    def speaking(self, situation: Situation, chosen: np.ndarray) -> np.ndarray:
        """Partners × chosen hints: whether the partner has its own reading of the hint. One
        silent on it reads it through its backoff, a partner already heard: a stranger's
        captain leaves it out of that hint's voices rather than hear it twice."""
        if not self.strangers:
            return np.ones((len(self.partners), len(chosen)), dtype=bool)
        hints = [self.weights.hints[i] for i in chosen]
        return np.stack([p.own_rows(hints, situation.words).any(axis=1) | (p.backoff is None)
                         for p in self.partners])

    def assassin_price(self, situation: Situation) -> float:
        """What a card that loses costs, in own cards: more in the endgame of a team alone."""
        settings = self.settings
        late = self.alone and situation.own.sum() <= settings.endgame
        return settings.endgame_assassin_cost if late else settings.assassin_cost

    def shortlist(self, situation: Situation, board: Board,
                  views: Sequence[np.ndarray] = ()) -> np.ndarray:
        """The `candidates` legal hints worth simulating, best by a quick margin score: under
        the captain's own matrix, or averaged over `views`, other matrices of the board. With its
        own matrix, also the `pair_candidates` best by that score for two cards: a hint for two
        whose second card is strong is outranked by the hints for one strong card (0058's rule
        left a hint a person sees for two out of the shortlist at half the turns that had one)."""
        def quick(weights: np.ndarray) -> np.ndarray:
            view = replace(situation, weights=weights)
            return np.where(situation.legal[:, None], self.prefilter.score(view, board), -np.inf)

        if views:
            return best_of(np.mean([quick(w).max(axis=1) for w in views], axis=0), self.settings.candidates)
        table = quick(situation.weights)
        chosen = best_of(table.max(axis=1), self.settings.candidates)
        if self.settings.pair_candidates and table.shape[1] > 1:
            chosen = np.union1d(chosen, best_of(table[:, 1], self.settings.pair_candidates))
        if self.sight:
            chosen = np.union1d(chosen, self.clearest(situation))
        return chosen

    def clearest(self, situation: Situation, per_card: int = 5) -> np.ndarray:
        """For each own card, the legal hints under which the agent most surely takes it first
        (HAIR for COMB): a clear one-card hint whose margin score the multi-card hints outrank."""
        own = np.flatnonzero(situation.own)
        if not len(own):
            return np.array([], dtype=int)
        first = softmax(situation.weights / self.temperature, axis=1)[:, own]   # (hints, own)
        first[~situation.legal] = -1.0
        n = min(per_card, int(situation.legal.sum()))
        return np.unique(np.argpartition(-first, n - 1, axis=0)[:n]) if n else np.array([], dtype=int)

    def expected(self, situation: Situation, partner: Weights, chosen: np.ndarray,
                 risk: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each chosen hint and count 1..depth, under one partner's weights: the expected
        own cards less the expected cost of a miss that does not lose, and the chance of a
        miss that does (`losing`); and for each hint, how many own cards the partner's plain
        ranking puts first, short of `assassin_gap` cards from the assassin (its reach)."""
        # As the partner's agent reads them, backoff included, even for the captain's own matrix.
        w = partner.hint_rows([self.weights.hints[i] for i in chosen], situation.words)
        rng = np.random.default_rng(self.settings.seed)  # common random numbers: fair between hints
        samples, lapse, flat = self.settings.samples, self.settings.lapse, self.settings.flat
        noise = rng.gumbel(size=(samples, 1, w.shape[1])).astype(np.float32)
        # A `lapse` share of the turns is read loosely: those samples at a flatter temperature.
        sharpness = np.where(np.arange(samples) < round(lapse * samples), flat, 1.0).astype(np.float32)
        noisy = sharpness[:, None, None] * w[None] / self.temperature + noise   # (S, n, cards)
        own, others, losing = situation.own, ~situation.own, self.losing(situation)
        cost = np.array([self.cost(c, situation.team) for c in situation.colors], np.float32)
        cost[losing] = 0.0   # a card that loses is priced by its chance (`simulate`), not as a miss
        if others.any():
            best_other = noisy[..., others].max(axis=2)                     # (S, n)
            # Which other card ends the turn does not depend on when (a Gumbel max is
            # independent of its argmax), so its chances are exact, a softmax over the others:
            # a rare assassin is priced at its chance, not at 0 or 1 in `samples`.
            ends = strayed(w[:, others] / self.temperature, lapse, flat, axis=1)   # (n, others)
        else:                                        # only own cards are left: no miss
            best_other, ends = np.full(noisy.shape[:2], -np.inf), np.zeros((len(w), 0))
        # The agent guesses down its noisy ranking: the own cards above the best other one.
        miss = (noisy[..., own] > best_other[..., None]).sum(axis=2)        # (S, n)
        miss_cost = ends @ cost[others]
        fatal = ends @ losing[others].astype(np.float32)
        k = np.arange(1, self.depth(situation) + 1)
        found = np.minimum(miss[..., None], k).mean(axis=0)                 # (n, depth)
        missed = (miss[..., None] < k).mean(axis=0)
        return found - missed * (miss_cost * risk)[:, None], missed * fatal[:, None], \
            self.reach(situation, w)

    def reach(self, situation: Situation, w: np.ndarray) -> np.ndarray:
        """For each row of `w` (hints × cards): how many own cards the plain ranking puts above
        every other card; none when the assassin is among its `assassin_gap` strongest other
        cards or tied with them (a reader that strays once may meet it), or is not last when
        fewer are left."""
        own, others = situation.own, ~situation.own
        if not others.any():
            return np.full(len(w), float(own.sum()))
        clear = (w[:, own] > w[:, others].max(axis=1, keepdims=True)).sum(axis=1).astype(float)
        assassin = situation.mask(ASSASSIN)
        if not assassin.any() or not self.assassin_gap:
            return clear
        # Other cards weighed at least as the assassin (itself not counted): ties are no shield.
        rank = (w[:, others] >= w[:, assassin].max(axis=1, keepdims=True)).sum(axis=1) - 1
        gap = min(self.assassin_gap, int(others.sum()) - 1)   # few cards left: it may be last
        return np.where(rank < gap, 0.0, clear)

    @staticmethod
    def losing(situation: Situation) -> np.ndarray:
        """The face-down cards that lose the game when turned over: the assassin, and the
        opponent's last card, which wins it for them."""
        assassin, opponent = situation.mask(ASSASSIN), situation.mask(situation.team.other)
        return assassin | opponent if opponent.sum() == 1 else assassin

    def cost(self, color: Color, team: Color) -> float:
        """What a card of this colour costs when it ends the turn; the cards that lose the game
        are priced apart (`losing`). Alone, a miss costs nothing: the turn ends anyway."""
        if color is team or color is ASSASSIN or self.alone:
            return 0.0
        return self.settings.neutral_cost if color is NEUTRAL else self.settings.opponent_cost
