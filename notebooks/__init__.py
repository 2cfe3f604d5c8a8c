"""The course's notebooks, shipped inside the package as `react_teach.course_notebooks` (see pyproject.toml), so
that `python -m react_teach notebooks DIR` can copy them out of an install."""
