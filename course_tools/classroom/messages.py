"""What a student's workspace says (``make lab``, and each hub server's start), in every language of
``LANGUAGES``: it ships in the students' image, the hub's own texts (``hub_messages.py``) do not.
Adding a language adds a line to every entry (``tests/unit/test_messages.py``)."""

from course_lib.i18n import Messages

__all__ = ["WORKSPACE"]

#: workspace.py: what `make lab` tells a student about their copies of the lessons
WORKSPACE = Messages(
    "workspace",
    {
        "new": "new lesson: {path}",
        "updated": "updated: {path}",
        "kept": "a newer version of {path} exists; your edited copy is kept, the new one is {new}",
        "link_kept": (
            "{path} is a link, so it is yours and the course never writes through it; "
            "the course's version is {new}"
        ),
        "renamed_moved": "lesson {old} is now {new}: your copy, which you had not changed, moved to the new name",
        "renamed_kept": "lesson {old} is now {new}: your edited copy stays under the old name, the new lesson is {new}",
        "not_a_file": (
            "{path} is a folder, not a lesson: that lesson is skipped; rename or remove the folder to get it"
        ),
        "not_a_folder": (
            "{path} should be the folder of the lessons, but it is a file or a link, so those lessons "
            "are skipped; move it away and they appear at the next start"
        ),
        "manifest_unreadable": (
            "the course's list of the files it wrote, {path}, cannot be read ({error}): every lesson "
            "already in your workspace is treated as yours and kept; the list is written anew"
        ),
        "cannot_write": "could not update {path} ({error}): that lesson is skipped",
        "settings_failed": (
            "JupyterLab's interface language could not be set in {path} ({error}; a link there "
            "is yours, and the course never writes through one): JupyterLab opens in English"
        ),
        "failed": "the lessons could not be updated ({error}); JupyterLab starts with what is there",
        "trust_failed": (
            "the course's lessons could not be marked trusted ({error}): their explorers show as text "
            "until you run their cells"
        ),
        "ready": "your workspace: {root}",
    },
)
