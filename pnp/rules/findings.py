"""What a check reports: findings with a level, and exact figures."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pnp.rules.figures import Exact


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Finding:
    level: Severity
    check: str
    message: str
    where: str
    """``file:line:col`` of the value the finding is about (game.yaml or a cards file)."""

    def as_json(self) -> dict[str, str]:
        return {"level": self.level.value, "check": self.check, "message": self.message, "where": self.where}


@dataclass(frozen=True)
class Report:
    game: str
    findings: tuple[Finding, ...]
    exact: Exact = field(default_factory=Exact)

    def errors(self, strict: bool = False) -> list[Finding]:
        bad = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
        return [f for f in self.findings if f.level in bad]

    def ok(self, strict: bool = False) -> bool:
        return not self.errors(strict)
