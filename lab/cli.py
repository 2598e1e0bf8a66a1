"""The command line: ``python -m lab ...`` (run from the checkout).

Every command writes into the same results store as the app (the folder in
``$TREE_BIAS_LAB_DATA`` or ``--data-dir``), so a run computed on a server
appears in the app's saved-run lists. A stopped or killed run resumes when
the same command is given again.

Examples::

    python -m lab conditioning --datasets all --model forest --repeats 400 --folds 5
    python -m lab conditioning --datasets o-ring,bupa --repeats 10 --scheduler local:4
    python -m lab conditioning --datasets haberman --engine xgboost --repeats 20 --csv t.csv
    python -m lab conditioning --datasets all --engine lightgbm --repeats 20 --select
    python -m lab engines-table --engines sklearn,xgboost,lightgbm --html engines.html
    python -m lab split-bias --trials 100000 --N 50,100,500 --p1 0.1,0.5
    python -m lab paper-settings --search lymphography,stock-portfolio
    python -m lab runs list
    python -m lab runs show 3f2a9c0d1e2b4a5c
    python -m lab audit model.json data.csv --target y --out audit/
    python -m lab parity model.txt data.csv --target y --export model.onnx --conditioning average
    python -m lab kernels                      # compile the tree engine before the first visitor

Every argument is checked before a run exists: argparse types; the folds against every chosen
dataset, seeds, sizes, ``--jobs``, ``--data-dir``; a library engine's settings against the
library's own ranges (``trees.conditioning.check_library_params``, in the Tables job's
constructor); output paths tried as they will be written (:mod:`lab.paths`). A refusal exits
with code 2 and says what is wrong in one sentence, an operating system's error on a file
included. Jobs bring their settings to one normal form (:mod:`lab.checks`), so the app and the
command line give one run id for one set of settings.
"""

import argparse
import json
import math
import os
import sys
from dataclasses import replace

import pandas as pd

from datasets import DataError
from trees.conditioning import (
    ENGINES,
    LIBRARY_ENGINES,
    PACKAGE_ENGINES,
    check_engine_installed,
    engine_models,
    register_library_engines,
)
from trees.interop import LibraryNotInstalled

from .audit import add_audit_parser, run_audit
from .checks import check_seed
from .executors import SchedulerError, check_workers, make_executor, max_workers
from .jobs import SELECTION_REPEATS, PaperTablesJob
from .kernels import add_kernels_parser, run_kernels
from .paper import comparison_frame, engines_frame, write_html
from .parity import add_parity_parser, run_parity
from .paths import check_output_file
from .runner import damaged_text, run_job
from .saved import chosen_settings_frame, delete_run, engine_runs, reopen, saved_runs
from .search import SettingsSearchJob, chosen_settings
from .split_bias import SplitBiasJob
from .store import DATA_ENV, STORE_NAME, ResultsStore, StoreError, data_folder
from .tables import resolve_names

__all__ = ["main"]


class ProgressBar:
    """A one-line progress bar on stderr (redrawn in place on a terminal)."""

    def __init__(self, label, stream=None, width=30):
        self.label, self.stream, self.width = label, stream or sys.stderr, width
        self.tty = getattr(self.stream, "isatty", lambda: False)()
        self._last = -1

    def __call__(self, done, total, summary=None):
        share = done / total if total else 1.0
        step = int(share * 100)
        if not self.tty and step == self._last and done != total:
            return  # a log file gets a line per percent, not per task
        self._last = step
        filled = int(share * self.width)
        bar = "#" * filled + "." * (self.width - filled)
        end = "\r" if self.tty and done < total else "\n"
        self.stream.write(f"{self.label} [{bar}] {done}/{total} tasks{end}")
        self.stream.flush()


# The largest values of the whole-number options: far above any run that ends in a day,
# far below what overflows (a run asking for more would fail, or never end, after it started).
_MOST_REPEATS, _MOST_TRIALS, _MOST_ROWS, _MOST_VALUES = 10_000, 10**9, 10**7, 10_000


def _whole(low, high=None):
    """An argparse type: a whole number from ``low`` to ``high``, or a message saying so."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,}, got {value:,}")
        return value

    return parse


_positive = _whole(1)


def _checked(check):
    """An argparse type from a rule of the lab (it raises ValueError with what is wrong)."""

    def parse(text):
        try:
            return check(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def _seed(text):
    """A seed: a whole number from 0 to 2**32 - 1 (:func:`lab.checks.check_seed`)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    return check_seed(value)


def _data_dir(text):
    """The data folder: a folder, or a path where one can be created (not a file)."""
    if os.path.exists(text) and not os.path.isdir(text):
        raise ValueError(
            f"{text!r} is a file, not a folder: give a folder for the results store "
            "(it is created when missing)"
        )
    return text


def _floats(text):
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give numbers separated by commas") from None
    if not all(math.isfinite(v) for v in values):
        raise argparse.ArgumentTypeError(f"{text!r}: give finite numbers (no nan or inf)")
    return values


def _ints(text):
    try:
        values = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give whole numbers separated by commas"
        ) from None
    if not all(1 <= v <= _MOST_ROWS for v in values):
        raise argparse.ArgumentTypeError(f"{text!r}: each must lie from 1 to {_MOST_ROWS:,}")
    return values


def _add_execution(parser):
    parser.add_argument("--scheduler", default=None,
                        help="processes (default), threads, local:N (a Dask cluster here) "
                             "or tcp://host:8786 (a Dask scheduler)")  # fmt: skip
    parser.add_argument("--jobs", type=_checked(check_workers), default=os.cpu_count() or 1,
                        help=f"local worker processes (default: the CPU count; at most "
                             f"{max_workers()})")  # fmt: skip


def _add_conditioning(commands):
    cond = commands.add_parser(
        "conditioning", help="source 000's Tables 2-3 on some of its 40 datasets"
    )
    cond.add_argument("--datasets", default="all", help="'all' or names separated by commas")
    cond.add_argument("--model", choices=("tree", "forest", "both"), default="both")
    cond.add_argument("--repeats", type=_whole(1, _MOST_REPEATS), default=400)
    cond.add_argument("--folds", type=_whole(2), default=5,
                      help="folds of the cross-validation (at most a dataset's rows, or the rows "
                           "of its largest class)")  # fmt: skip
    cond.add_argument(
        "--engine",
        choices=sorted(ENGINES),
        default="trees",
        help="who fits: this package (trees, or extra-trees: random thresholds, the control), "
        "scikit-learn, or a library's ensemble "
        "(forest only; its defaults, see trees.conditioning.LIBRARY_ENGINES)",
    )
    cond.add_argument(
        "--library-params",
        help="library engines: settings replacing the library's defaults, in its own names "
        "(e.g. n_estimators=50,max_depth=3); recorded in the saved run",
    )
    cond.add_argument(
        "--select",
        action="store_true",
        help="library engines: first choose each dataset's number of trees and depth from "
        "the engine's small grid by the paper's rule (best mean AUC or R^2 under the "
        "library's own test over repeated 5-fold cross-validation), then run with them",
    )
    cond.add_argument(
        "--select-repeats",
        type=_whole(1, _MOST_REPEATS),
        default=SELECTION_REPEATS,
        help="repeats of the selection's 5-fold cross-validation (the paper: 20)",
    )
    cond.add_argument("--csv", help="also write the table of rows to this CSV file")
    cond.add_argument("--html", help="also write the table of rows to this HTML file")
    cond.add_argument("--seed", type=_checked(_seed), default=0,
                      help="seed of the folds (0 to 2**32 - 1)")  # fmt: skip
    cond.add_argument("--significance", choices=("paper", "two-sided"), default="paper")
    cond.add_argument(
        "--rho-k-against", choices=("training rows", "all rows"), default="training rows"
    )
    cond.add_argument(
        "--tie-break", choices=("first", "random"), help="engine trees: ties between features"
    )
    cond.add_argument(
        "--threshold-dtype",
        choices=("float64", "float32"),
        help="engine trees: float32 thresholds compare as scikit-learn's",
    )
    cond.add_argument(
        "--variance-sums",
        choices=("centred", "raw"),
        help="engine trees, regression: raw sums as scikit-learn's (rounding can split a node "
        "whose target is constant)",
    )
    _add_execution(cond)


def _add_engines_table(commands):
    table = commands.add_parser(
        "engines-table", help="saved Tables 2-3 runs side by side, a column group per engine"
    )
    table.add_argument(
        "--engines",
        default=",".join(ENGINES),
        help="engines separated by commas (default: every engine with a run)",
    )
    table.add_argument(
        "--datasets",
        default=None,
        help="only runs covering these datasets (names separated by commas)",
    )
    table.add_argument("--csv", help="also write the table to this CSV file")
    table.add_argument("--html", help="also write the table to this HTML file")


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m lab", description="Long runs of Tree Bias Lab, saved to its results store."
    )
    parser.add_argument(
        "--data-dir", type=_checked(_data_dir),
        help=f"the lab's data folder (default: ${DATA_ENV} or ~/.tree-bias-lab)",
    )  # fmt: skip
    commands = parser.add_subparsers(dest="command", required=True)

    _add_conditioning(commands)
    _add_engines_table(commands)
    bias = commands.add_parser("split-bias", help="source 001's bias of split criteria over a grid")
    bias.add_argument("--trials", type=_whole(1, _MOST_TRIALS), default=100_000)
    bias.add_argument("--n1", type=_whole(1, _MOST_VALUES), default=10)
    bias.add_argument("--n2", type=_whole(1, _MOST_VALUES), default=2)
    bias.add_argument("--N", type=_ints, default=(50, 100, 200, 500), help="dataset sizes")
    bias.add_argument("--p1", type=_floats, default=(0.1, 0.3, 0.5), help="class priors")
    bias.add_argument("--seed", type=_checked(_seed), default=0, help="0 to 2**32 - 1")
    _add_execution(bias)

    settings = commands.add_parser(
        "paper-settings", help="source 000's settings; --search reruns its selection"
    )
    settings.add_argument("--search", help="datasets to search, separated by commas")
    settings.add_argument("--repeats", type=_whole(1, _MOST_REPEATS), default=SELECTION_REPEATS)
    settings.add_argument("--model", choices=("tree", "forest", "both"), default="both")
    _add_execution(settings)

    runs = commands.add_parser("runs", help="list, show or delete saved runs")
    actions = runs.add_subparsers(dest="action", required=True)
    listing = actions.add_parser("list")
    listing.add_argument("--kind", help="conditioning, tables, split-bias or paper-settings")
    actions.add_parser("show").add_argument("run_id")
    delete = actions.add_parser("delete")
    delete.add_argument("run_id")
    add_audit_parser(commands)
    add_parity_parser(commands)
    add_kernels_parser(commands)
    return parser  # fmt: skip


def _store(args):
    folder = args.data_dir or data_folder()
    return ResultsStore(os.path.join(folder, STORE_NAME))


def _run(job, store, args, out):
    executor = make_executor(args.scheduler, n_jobs=args.jobs)
    print(f"Run {job.run_id()}: {job.label()} on {executor.describe()}", file=sys.stderr)
    try:
        outcome = run_job(job, store, executor, ProgressBar(job.kind))
    finally:
        executor.close()
    print(f"Run {outcome.run_id}: {outcome.status}, {outcome.n_done}/{outcome.n_tasks} tasks, "
          f"saved in {store.path}", file=sys.stderr)  # fmt: skip
    if outcome.damaged:
        print(f"Run {outcome.run_id}: {damaged_text(outcome.damaged)}.", file=sys.stderr)
    return outcome


def _project_options(args):
    """The project-only tree options given on the command line (engine trees only)."""
    options = {
        "tie_break": args.tie_break,
        "threshold_dtype": args.threshold_dtype,
        "variance_sums": args.variance_sums,
    }
    options = {k: v for k, v in options.items() if v is not None}
    if options and args.engine not in PACKAGE_ENGINES:
        raise ValueError(
            "--tie-break, --threshold-dtype and --variance-sums apply to this package's engines "
            f"only ({', '.join(PACKAGE_ENGINES)})."
        )
    library = _library_params(args.library_params)
    if library and args.engine not in LIBRARY_ENGINES:
        raise ValueError("--library-params apply to the library engines only.")
    return tuple(sorted({**options, **library}.items()))


def _library_params(text):
    """``"n_estimators=50,max_depth=3"`` as a dict (whole numbers, numbers, or words)."""
    params = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--library-params: {item!r} is not name=value.")
        for kind in (int, float):
            try:
                params[name.strip()] = kind(value)
                break
            except ValueError:
                params[name.strip()] = value.strip()
    return params


def _models(args):
    """The models of ``--model``; "both" is the ensemble alone for a library engine."""
    models = engine_models(
        args.engine, ("tree", "forest") if args.model == "both" else (args.model,)
    )
    if not models:
        raise ValueError(
            f"--engine {args.engine} fits the library's ensemble: use --model forest "
            "(a single tree of a boosting library is not the paper's tree)."
        )
    return models


def _selected(args, names, store, out):
    """With ``--select``: run (or resume) the engine's selection; its choice per dataset."""
    if not args.select:
        return ()
    if args.engine not in LIBRARY_ENGINES:
        raise ValueError(
            "--select chooses a library engine's settings; the trees and sklearn engines "
            "take the paper's own choice (Table 1)."
        )
    if args.library_params:
        raise ValueError("Give --select or --library-params, not both.")
    search = SettingsSearchJob(names=names, models=("forest",), n_repeats=args.select_repeats,
                               engine=args.engine)  # fmt: skip
    outcome = _run(search, store, args, out)
    if outcome.status != "done":
        raise KeyboardInterrupt
    selected = chosen_settings(outcome.summary)
    for name, params in selected:
        print(f"{name}: {dict(params)}", file=sys.stderr)
    return selected


def _check_exports(args):
    """``--csv`` and ``--html`` checked writable before a run (``lab.paths``)."""
    check_output_file(args.csv, "--csv")
    check_output_file(args.html, "--html")


def _conditioning(args, store, out):
    # Every setting is checked (the job's constructor, the library's own ranges included) and
    # every output path, before a run, the selection's too, starts; and that the engine's
    # library is installed (CatBoost is optional).
    check_engine_installed(args.engine)
    _check_exports(args)
    job = PaperTablesJob(
        names=resolve_names(args.datasets), models=_models(args), n_repeats=args.repeats,
        n_splits=args.folds, random_state=args.seed, engine=args.engine,
        rho_k_against=args.rho_k_against, significance=args.significance,
        extra_params=_project_options(args), selection_repeats=args.select_repeats,
    )  # fmt: skip
    selected = _selected(args, job.names, store, out)
    if selected:
        job = replace(job, selected=selected)
    outcome = _run(job, store, args, out)
    frame = comparison_frame(outcome.summary)
    _print_frame(frame, out)
    _export(frame, args, f"Tables 2-3, engine {args.engine}: {job.label()}")


def _export(frame, args, title):
    """Write ``frame`` to ``--csv`` and ``--html`` when given."""
    if args.csv:
        frame.to_csv(args.csv, index=False)
    if args.html:
        write_html(frame, args.html, title)


def _engines_table(args, store, out):
    _check_exports(args)
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    unknown = [e for e in engines if e not in ENGINES]
    if unknown:
        raise ValueError(f"Unknown engines {unknown}; use some of {sorted(ENGINES)}.")
    names = resolve_names(args.datasets) if args.datasets else None
    chosen = engine_runs(store, engines, names)
    if not chosen:
        raise KeyError("No saved Tables 2-3 run of these engines ('runs list --kind tables').")
    for engine, run in chosen.items():
        print(f"{engine}: run {run['id']} ({run['status']}, {run['n_done']}/{run['n_tasks']} "
              f"tasks)", file=sys.stderr)  # fmt: skip
    frame = engines_frame({engine: run["summary"] for engine, run in chosen.items()})
    if names is not None:
        frame = frame[frame["dataset"].isin(names)]
    _print_frame(frame, out)
    chosen = chosen_settings_frame(chosen)
    if len(chosen):
        out.write("\nSettings chosen per dataset by the paper's rule:\n")
        _print_frame(chosen, out)
    _export(frame, args, "Tables 2-3 per engine, beside the paper's scikit-learn cells")


def _split_bias(args, store, out):
    job = SplitBiasJob(n1=args.n1, n2=args.n2, N=args.N, p1=args.p1, trials=args.trials,
                       seed=args.seed)  # fmt: skip
    outcome = _run(job, store, args, out)
    out.write(json.dumps(outcome.summary, indent=1) + "\n")


def _paper_settings(args, store, out):
    if not args.search:
        from datasets.source000 import settings_table

        _print_frame(
            settings_table()[["dataset", "model", "min_samples_leaf", "max_depth", "origin"]], out
        )
        return
    models = ("tree", "forest") if args.model == "both" else (args.model,)
    job = SettingsSearchJob(names=resolve_names(args.search), models=models, n_repeats=args.repeats)
    outcome = _run(job, store, args, out)
    for part, found in outcome.summary.items():
        out.write(f"{part}: {found['best']} (mean score {found['score']:.4f})\n")


def _runs(args, store, out):
    if args.action == "list":
        _print_frame(saved_runs(store, kind=args.kind), out)
    elif args.action == "show":
        run, result = reopen(store, args.run_id)
        if run["damaged"]:
            _warn_damaged(run)
        details = {k: run[k] for k in ("id", "kind", "label", "status", "n_done", "n_tasks",
                                       "dataset", "version", "message")}  # fmt: skip
        out.write(json.dumps({**details, "settings": run["settings"], "seeds": run["seeds"]},
                             indent=1) + "\n")  # fmt: skip
        if isinstance(result, pd.DataFrame):
            _print_frame(result, out)
        elif run["kind"] == "conditioning" and result is not None:
            out.write(json.dumps(result.summary(), indent=1, default=str) + "\n")
        elif result is not None:
            out.write(json.dumps(result, indent=1) + "\n")
    elif not delete_run(store, args.run_id):
        raise KeyError(f"No saved run {args.run_id!r} to delete ('runs list' shows the ids).")
    else:
        out.write(f"Deleted run {args.run_id}.\n")


def _warn_damaged(run):
    """Say which saved parts of ``run`` could not be read (they are left out of what is shown)."""
    damaged = " and ".join(run["damaged"])
    print(f"tree-bias-lab: warning: run {run['id']}: its saved {damaged} cannot be read "
          "(damaged) and is left out; run the same command again to compute it anew.",
          file=sys.stderr)  # fmt: skip


def _print_frame(frame, out):
    with pd.option_context("display.width", 200, "display.max_columns", None,
                           "display.max_rows", None):  # fmt: skip
        out.write(frame.to_string(index=False) + "\n")


_COMMANDS = {"conditioning": _conditioning, "engines-table": _engines_table,
             "split-bias": _split_bias,
             "paper-settings": _paper_settings, "runs": _runs, "audit": run_audit,
             "parity": run_parity, "kernels": run_kernels}  # fmt: skip


def _os_error_sentence(error):
    """An operating system's error on a file as one sentence: the file, and why."""
    reason = (error.strerror or str(error)).lower()
    if error.filename is None:
        return f"a file could not be read or written ({reason})."
    return f"{error.filename} could not be read or written ({reason})."


def main(argv=None, out=None):
    """Run the command line; returns the exit status (0 ok, 1 store error, 2 bad arguments)."""
    out = out or sys.stdout
    register_library_engines()  # before the parser, which offers every engine
    args = _parser().parse_args(argv)
    try:
        # audit, parity and kernels save nothing
        store = None if args.command in ("audit", "parity", "kernels") else _store(args)
        _COMMANDS[args.command](args, store, out)
    except (DataError, SchedulerError, ValueError, KeyError, LibraryNotInstalled) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"tree-bias-lab: error: {message}", file=sys.stderr)
        return 2
    except StoreError as error:
        print(f"tree-bias-lab: error: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # a file the command reads or writes, refused by the system
        print(f"tree-bias-lab: error: {_os_error_sentence(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tree-bias-lab: interrupted; run the same command again to resume.", file=sys.stderr)
        return 130
    return 0
