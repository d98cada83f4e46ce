"""The class's poll: a small web server on the classroom network that shows each
guess-first question on the students' phones and counts their answers for the stage.

`ClassPoll` (classpoll.py) is the API the window uses; `LessonPoll` (lesson.py) joins it to
the lesson; `scene_question` (questions.py) fills a scene's poll in; `qr_image` (qr.py)
draws the code to scan; `network.py` finds the address to listen on. The server itself is
aiohttp on its own thread (server.py, service.py), checking every request (guard.py) and
sending only the bundled page (page.py).
"""
