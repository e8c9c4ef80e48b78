"""The lesson build: one bilingual source per lesson (:mod:`.source`, the language of a lesson source; :mod:`.lesson_code`,
its code cells' comments and ``pick()`` calls) -> an executed notebook per language (:mod:`.execute`), every
lesson at once (:mod:`.course`), the lesson tables (:mod:`.tables`), a lecture's budgets (:mod:`.lecture`), and
what ``python -m course_tools.lessons`` does (:mod:`.lessons`). Imports the core only."""
