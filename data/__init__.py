"""The course's data, shipped inside the package as `react_teach.course_data` (see pyproject.toml).

The corpus, the exemplars, the question sets, the recorded runs, the labels and the fine-tuned adapters. Code
finds this folder with `react_teach.data.data_dir()`, in the checkout and in an install alike.
"""
