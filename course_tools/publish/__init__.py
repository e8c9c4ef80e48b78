"""Publishing the built course, from the committed notebooks (nothing executed): the decks (:mod:`.slides`, their
speaker view :mod:`.speaker_view`, their handouts :mod:`.handout_pages`, printed by :mod:`.handouts`), the course's
fonts (:mod:`.fonts`), and the website (:mod:`.site`, its own pages :mod:`.site_pages`, its Sphinx side
:mod:`.site_theme`). Imports the core and the lesson build (a deck is a lesson rendered for the slides)."""
