"""The classroom: the students' own copies of the lessons (:mod:`.workspace`, ``make lab``), each student's
server on a hub (:mod:`.server`), and the hub itself (:mod:`.hub`, its system users, spawner and login
:mod:`.hub_users`). Imports the core only; :mod:`.server`, :mod:`.workspace` and :mod:`.messages` are what
the students' image holds of it (deploy/Dockerfile)."""
