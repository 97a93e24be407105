"""The commands that manage what was imported: rename, delete."""

from __future__ import annotations

import argparse

from litqeval_gui.cli.common import Command, emit, open_for_writing
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import lists


def cmd_rename(args: argparse.Namespace) -> None:
    with open_for_writing(args.project) as project:
        if args.list:
            project.write(lists.rename_list_op(args.topic, args.list, args.new_name))
        else:
            project.write(lists.rename_topic_op(args.topic, args.new_name))
    old = f"list {args.list!r} of topic {args.topic!r}" if args.list else f"topic {args.topic!r}"
    emit(args, {"topic": args.topic, "list": args.list, "renamed_to": args.new_name.strip()},
         lambda: f"renamed {old} to {args.new_name.strip()!r}")


def cmd_delete(args: argparse.Namespace) -> None:
    if args.dry_run:
        with Project.open(args.project, readonly=True) as project:
            impact = lists.deletion_impact(project, args.topic, args.list)
        emit(args, {"deleted": False, **impact.as_dict()}, impact.describe)
        return
    with open_for_writing(args.project) as project:
        impact = lists.deletion_impact(project, args.topic, args.list)
        if not args.yes:
            raise LitqError(f"{impact.describe().replace(chr(10), ' ')} Nothing was deleted: "
                            "add --yes to delete (or --dry-run to only see this)")
        if args.list:
            project.write(lists.delete_list_op(args.topic, args.list))
        else:
            project.write(lists.delete_topic_op(args.topic))
    done = [*impact.describe().splitlines()[:-1], "Done."]  # not "cannot be undone"
    emit(args, {"deleted": True, **impact.as_dict()}, lambda: "\n".join(done))


def register(command: Command) -> None:
    """Add this module's commands to the ``litqeval`` parser."""
    p = command("rename", cmd_rename)
    p.add_argument("--topic", required=True)
    p.add_argument("--list", help="the list to rename (default: the topic itself)")
    p.add_argument("new_name", metavar="NEW_NAME")
    p = command("delete", cmd_delete)
    p.add_argument("--topic", required=True)
    p.add_argument("--list", help="the list to delete (default: the whole topic)")
    p.add_argument("--yes", action="store_true", help="delete (without it nothing is deleted)")
    p.add_argument("--dry-run", action="store_true", help="only say what would be deleted")
