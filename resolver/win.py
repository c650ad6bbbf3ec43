"""Win conditions as data: who counts for which team, the tie table, individual wins.

``Ruleset.win["check"]`` names the check (``WIN_CHECKS``); its parameters are the rest of
``win:``. Roles carry ``team``/``tie_class``/``win`` and factions their ``win`` name, so no
code here knows a role by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from resolver.model.state import Winner
from resolver.work import PlayerWork, Work

NONE_TEAM = "none"
SOLO_TEAM = "solo"


def check_win(work: Work) -> Winner | None:
    """The winner once the game is over, else None."""
    check = str(work.ruleset.win.get("check", "factions"))
    return WIN_CHECKS[check](work, work.ruleset.win)


def team_of(work: Work, player: PlayerWork) -> str | None:
    """The team a player counts for in end-game checks (None: ignored)."""
    team = work.role_of(player.name).team or player.faction
    if team == NONE_TEAM:
        return None
    if team == SOLO_TEAM:
        return f"{SOLO_TEAM}:{player.name}"
    return team


def _tie_class(work: Work, player: PlayerWork, params: Mapping[str, Any]) -> str:
    if "remembered" in player.flags and params.get("remembered_amnesiac_loses_ties"):
        return str(params["remembered_tie_class"])
    return work.role_of(player.name).tie_class or player.faction


def team_endgame(work: Work, params: Mapping[str, Any]) -> Winner | None:
    """Last team standing, a two-player tie table, then (optionally) literal faction wins."""
    living = work.living()
    if not living:
        return _finish(work, [], "everyone_died", params, draw=True)
    counted = [(p, t) for p in living if (t := team_of(work, p)) is not None]
    teams = list(dict.fromkeys(t for _, t in counted))
    if not teams:
        return _finish(work, [], "only_independents_left", params)
    if len(teams) == 1:
        return _finish(work, teams, "last_team_standing", params)
    if len(counted) == 2:
        return _tie(work, counted, params)
    if params.get("end") == "literal":
        return _literal(work, teams, params)
    return None


def _tie(
    work: Work, counted: list[tuple[PlayerWork, str]], params: Mapping[str, Any]
) -> Winner | None:
    classes = [_tie_class(work, p, params) for p, _ in counted]
    for row in params.get("tie_table", ()):
        row_classes = list(row["classes"])
        if sorted(row_classes) != sorted(classes):
            continue
        winner = row["winner"]
        if winner == "both":
            teams = [t for _, t in counted]
        elif winner == "none":
            teams = []
        else:
            teams = [t for (p, t), c in zip(counted, classes, strict=True) if c == winner]
        losers = {p.name for p, t in counted if t not in teams}
        return _finish(
            work, teams, f"tie:{'+'.join(sorted(classes))}", params, losers=losers, draw=not teams
        )
    return None


def _literal(work: Work, teams: list[str], params: Mapping[str, Any]) -> Winner | None:
    """``literal_wins: {village: mafia}``: a team wins once no member of the other lives."""
    for team, other in dict(params.get("literal_wins", {})).items():
        if team in teams and other not in teams:
            return _finish(work, [team], "literal", params)
    return None


def factions(work: Work, params: Mapping[str, Any]) -> Winner | None:
    """Default check: the game ends when every counted survivor shares one faction."""
    living = work.living()
    if not living:
        return _finish(work, [], "everyone_died", params, draw=True)
    teams = list(dict.fromkeys(t for p in living if (t := team_of(work, p)) is not None))
    return _finish(work, teams, "last_team_standing", params) if len(teams) <= 1 else None


def _finish(
    work: Work,
    teams: list[str],
    reason: str,
    params: Mapping[str, Any],
    *,
    losers: set[str] | frozenset[str] = frozenset(),
    draw: bool = False,
) -> Winner:
    share = params.get("witch_shares_mafia_win", True)
    alive_factions = {p.faction for p in work.living()}
    winners = []
    for p in work.players.values():
        team = team_of(work, p)
        if (team in teams and (share or p.faction in alive_factions)) or (
            p.name not in losers and _individual_win(work, p)
        ):
            winners.append(p.name)
    factions_ = sorted(
        {work.players[n].faction for n in winners if team_of(work, work.players[n]) in teams}
    )
    return Winner(tuple(factions_), tuple(winners), reason, draw and not factions_)


def _individual_win(work: Work, player: PlayerWork) -> bool:
    if "won" in player.flags:
        return True
    win = work.role_of(player.name).win
    return win == "survive" and player.alive


WinCheck = Callable[[Work, Mapping[str, Any]], Winner | None]


def hook(work: Work, params: Mapping[str, Any]) -> Winner | None:
    """The ruleset hook's own ``check_win(view)`` (for win rules no named check expresses)."""
    from resolver.hookspecs import HookView  # local: the hook view reads the work layer

    check = getattr(work.hooks, "check_win", None)
    if check is None:
        return factions(work, params)
    found: Winner | None = check(HookView(work))
    return found


WIN_CHECKS: dict[str, WinCheck] = {
    "team_endgame": team_endgame,
    "factions": factions,
    "hook": hook,
}
"""Named end-of-game checks a ruleset's ``win.check`` may choose."""
