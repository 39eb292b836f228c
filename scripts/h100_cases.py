"""Writing the cases of tests/h100_more: one NAME.ptx (a comment naming the script, then the PTX)
and one NAME.lanes.json each, into FOLDER/cases* or FOLDER/disagree. Shared by the generators
(scripts/h100_more_gen*.py); the expect files come from the H100 (scripts/h100_run.py)."""
import json
import os

from cmdline import command_line


def write_case(root, sub, name, src, lanes, script):
    folder = os.path.join(root, sub)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name + '.ptx'), 'w') as f:
        f.write('// tests/h100_more/%s/%s: written by scripts/%s; expect = what an H100 gave\n' % (sub, name, script))
        f.write(src)
    with open(os.path.join(folder, name + '.lanes.json'), 'w') as f:
        json.dump(lanes, f)
        f.write('\n')


def write_all(argv, cases, folder, disagree, script):
    """A generator's command line: ROOT [NAME...]: every case (or those named) into ROOT/folder,
    or ROOT/disagree for those in disagree. --help prints the script's docstring."""
    argv = command_line(argv, least=1)
    root, only = argv[1], set(argv[2:])
    for name, (src, lanes) in sorted(cases.items()):
        if not only or name in only:
            write_case(root, 'disagree' if name in disagree else folder, name, src, lanes, script)
