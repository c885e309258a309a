"""The table's notices for the host as a phone reads them: in its language, and a notice's
``guest`` words where it has them for a phone without the PIN. The state carries them, the
page's first load, and the answers that give or take the PIN (no state asked anew)."""

from __future__ import annotations

from web.errors import language
from web.table import table
from web.wording import notice_text


def notices(host: bool) -> list[str]:
    """The notices in this phone's language, as the host (``host``) or a guest reads them."""
    return [notice_text(language(), notice if host or notice.guest is None else notice.guest)
            for notice in table().notices]
