"""The exercise checkers, one module per notebook, named like the notebook without its number.

Each module registers its exercises with `react_teach.exercises.exercise`; a notebook reaches them with
``ex = exercises.of("the_bare_loop")`` and calls ``ex[1](answer)``.
"""
