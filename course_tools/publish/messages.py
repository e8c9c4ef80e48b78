"""What the published course says to its readers: the decks' index pages (``SLIDES_INDEX``), the website's
own pages and chrome (``SITE``) and reveal.js's own words (``REVEAL``). The English is here; each other
language's text is in ``course_tools/locale/<lang>/LC_MESSAGES/course_tools.po`` (``tests/unit/test_messages.py``
lists what is missing)."""

from course_lib.i18n import Messages

__all__ = ["SLIDES_INDEX", "SITE", "REVEAL"]

#: slides.py: the decks' index page of each language. ``version`` is what a link to that
#: language's index says.
SLIDES_INDEX = Messages(
    "slides_index",
    {
        "title": "The input layer of a Transformer — slides",
        "lessons": "Lessons",
        "keys": "Keys",
        "version": "English version",
        "offline": "Everything here works offline: the decks load nothing from the network.",
        "full_code": "Full code: in the notebook",
        "handout": "handout",
        "pdf": "PDF",
        "notes_heading": "Speaker notes",
        "slide": "Slide {number} of {total}",
        "key_next": "→, Space",
        "does_next": "next slide",
        "key_previous": "←",
        "does_previous": "previous slide",
        "key_section": "↓ ↑",
        "does_section": "slides within a section",
        "key_notes": "S",
        "does_notes": "speaker notes, in a window of their own",
        "key_full_screen": "F",
        "does_full_screen": "full screen (Esc leaves it)",
        "key_overview": "Esc",
        "does_overview": "overview of all slides",
        "key_black": "B",
        "does_black": "black screen and back",
    },
)

#: site_pages.py and site_theme: the website's home and glossary pages, and its page chrome
SITE = Messages(
    "site",
    {
        "title": "The input layer of a Transformer",
        "intro": (
            "Text → token IDs → token embeddings scaled by √d_model → positional encodings added: "
            "the input side of a Transformer (Vaswani et al., 2017, §3.4–3.5), built step by step. "
            "Each lesson here is its executed notebook: every output, formula and figure as it ran. "
            "The explorers are live in the page, with no kernel: move a slider and the browser redraws the "
            "picture beside the static figure of the same thing."
        ),
        "lessons": "Lessons",
        "slides": "slides",
        "notebook": "notebook",
        "all_slides": "All the slides",
        "glossary": "Glossary",
        "glossary_intro": (
            "The course's terms in English and Russian; the last column lists the words "
            "the Russian text does not use."
        ),
        "run_title": "Run the course on your computer",
        "run": (
            "You need Python 3.11 and `make`; everything else is installed from pinned versions, "
            "and nothing is downloaded while you work. In the folder of the course's repository:\n\n"
            "```bash\n"
            "make lab      # the lessons in JupyterLab (the first run creates .venv and installs the course)\n"
            "make lab-ru   # the Russian lessons, in JupyterLab's Russian interface\n"
            "```\n\n"
            "JupyterLab opens on 127.0.0.1; the address with its token is printed in the terminal. "
            "Your copies of the lessons live in `workspace/`: updating the course never overwrites them."
        ),
        "offline": "This website needs no network: copy its folder anywhere and open `index.html`.",
        "search": "Search the course…",
        # on a page in another language, the link to this one
        "this_page": "This page in English",
        "download": "Download the notebook (.ipynb)",
        # the download link's name for screen readers and speech input: it must contain what the link
        # shows (".ipynb", WCAG 2.2, 2.5.3 Label in Name), and words in parentheses do not count
        "download_label": "Download the notebook .ipynb",
    },
)

#: speaker_view.py: reveal.js's own words, which the decks of every other language load translated. The
#: English is reveal.js 4.0.2's, exactly: its speaker view (plugin/notes/notes.js) and, from
#: ``keyboard_shortcuts`` on, its core's help overlay (the ? key) and arrows (dist/reveal.js). Keys
#: printed on the keyboard (Home, Esc, the letters) stay as they are; a translation holds no quote
#: or backslash (it goes into JavaScript strings as it is).
REVEAL = Messages(
    "reveal",
    {
        "title": "reveal.js - Speaker View",
        "loading": "Loading speaker view...",
        "upcoming": "Upcoming",
        "time": "Time",
        "reset": "Click to Reset",
        "pacing": "Pacing – Time to finish current slide",
        "notes": "Notes",
        "layout": "Layout",
        "layout_default": "Default",
        "layout_wide": "Wide",
        "layout_tall": "Tall",
        "layout_notes_only": "Notes only",
        "no_connection": (
            "Error connecting to main window.<br>Please try closing and reopening the speaker view."
        ),
        # an alert: {slides} and {seconds} are numbers the speaker view writes in
        "pacing_minimum": (
            "The pacing time for {slides} slide(s) is under the configured minimum of {seconds} seconds. "
            "Check the data-timing attribute on individual slides, or consider increasing the totalTime or "
            "minimumTimePerSlide configuration options (or removing some slides)."
        ),
        "popup_failed": (
            "Speaker view popup failed to open. Please make sure popups are allowed and reopen the speaker view."
        ),
        "speaker_notes_view": "Speaker notes view",
        "keyboard_shortcuts": "Keyboard Shortcuts",
        "key": "KEY",
        "action": "ACTION",
        "space": "SPACE",
        "next_slide": "Next slide",
        "previous_slide": "Previous slide",
        "navigate_left": "Navigate left",
        "navigate_right": "Navigate right",
        "navigate_up": "Navigate up",
        "navigate_down": "Navigate down",
        "first_slide": "First slide",
        "last_slide": "Last slide",
        "pause": "Pause",
        "fullscreen": "Fullscreen",
        "slide_overview": "Slide overview",
        # the arrows' accessible names
        "arrow_next": "next slide",
        "arrow_previous": "previous slide",
        "arrow_above": "above slide",
        "arrow_below": "below slide",
    },
)
