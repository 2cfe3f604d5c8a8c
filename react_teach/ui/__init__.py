"""What a notebook shows: every widget and every figure. Renders `Trajectory`, holds no loop logic.

- `seats`: the two seats at the bare loop (you are the policy, or you are the environment);
- `trace`: a trajectory as HTML, each line coloured by its author;
- `widgets`: step through a trajectory, edit a thought and resume (`TraceViewer`, `TraceEditor`);
- `panels`: run many trajectories at once (`AblationPanel`) and label failures (`FailureLabeller`);
- `plots`: our numbers beside the paper's, with n, 95% intervals and baselines.

This file imports nothing, so that a notebook's first widget loads only what it draws: a seat never loads
matplotlib or the agent (a contract in pyproject.toml, and tests/ui/test_seats.py, keep it so).

    >>> from react_teach.trajectory import Step, Trajectory
    >>> from react_teach.ui.trace import trace_html
    >>> 'title="environment"' in trace_html(Trajectory("Q?", [Step("hm", "Search[X]", "X is 1.")]))
    True
"""
