"""The course's data, shipped inside the package as `react_teach.course_data` (see pyproject.toml).

The corpus, the exemplars, the question sets, the recorded runs, the labels and the fine-tuned adapters.
finetune/course_train.jsonl holds hand-written training questions over corpus articles that the 126 test
questions do not use (the rule and the oracle are in react_teach/finetune/course_data.py). Code
finds this folder with `react_teach.data.data_dir()`, in the checkout and in an install alike.
"""
