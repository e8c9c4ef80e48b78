"""Hooks for every pytest run of the repository.

When nbval finds a lesson whose outputs differ from its committed notebook (say, after a
message in ``course_lib`` was reworded), the summary names the lessons and the command that
rebuilds them, so that nobody has to work out which notebooks show the message.
"""


def pytest_terminal_summary(terminalreporter):
    from course_tools.build.course import rebuild_hint

    failed = terminalreporter.stats.get("failed", []) + terminalreporter.stats.get("error", [])
    lines = rebuild_hint([getattr(report, "nodeid", "") for report in failed])
    if lines:
        terminalreporter.section("lessons to rebuild")
        for line in lines:
            terminalreporter.write_line(line)
