"""The screener's Ordering choice (:class:`OrderingChoice`, mixed into
:class:`~litqeval_gui.gui.screens.screening.view.ScreeningView`): list order, a random
order, or a model's ranking, retrained in the background by the view's
:class:`~.ranking.Prioritiser`; the queue switches when a ranking arrives (never in a
random phase), and the record on screen stays until decided."""

from __future__ import annotations

from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.queue import Ordering, list_order, random_order
from litqeval_gui.core.screening.ranking.retrain import Ranking
from litqeval_gui.gui.screens.screening.ranking import MODELS


class OrderingChoice:
    """The view provides ``ordering`` (the combo; not at full text), ``prioritiser``,
    ``ranking``, ``core``, ``session``, ``since_retrain``, ``full_text`` and
    :meth:`show_current`."""

    ranking: Ranking | None

    def _ordering_for(self, key: str) -> Ordering | None:
        items = store.items(self.session.project, self.screening.id)
        if key == "list":
            return list_order(items)
        if key == "random":
            return random_order(items, 0)
        return self.ranking.ordering() if self.ranking else None  # until the retrain

    def _prioritised(self) -> bool:
        """Ranked by a model: never at full text (no ordering choice there, list order),
        and in a random phase no ranking changes the order."""
        return (not self.full_text and self.ordering.currentData() in MODELS
                and not self.core.random_phase)

    def ordering_changed(self) -> None:
        key = self.ordering.currentData()
        if key in MODELS:
            self.session.write(parameters.set_value_op(parameters.SCREENING_MODEL, key),
                               initiator=self)
        ordering = self._ordering_for(key)
        if ordering is not None:
            self._switch(ordering)
        if key in MODELS:
            self.start_ranking()

    def _switch(self, ordering: Ordering) -> None:
        """Continue in ``ordering``; the record on screen stays until decided."""
        self.core.switch(ordering)
        self.show_current()

    def start_ranking(self) -> None:
        """Retrain in the background; the queue switches when the ranking is ready."""
        self.since_retrain = 0
        self.prioritiser.start(self.ordering.currentData() if self._prioritised() else "logistic")

    def _ranked(self, ranking: Ranking) -> None:
        self.ranking = ranking
        if self._prioritised():
            self._switch(ranking.ordering())
