"""cmdline.py: the command line of the scripts that write files (the generators of test cases,
h100_run.py, hw_differs.py, ptxas_moves.py, bitfield_imm.py). `-h` or `--help` prints the script's usage (its docstring), exit 0;
an argument that starts with '-' and is not one of the script's options, or an option without
its values, is refused with the usage on standard error, exit 2. So no option, mistyped or not,
is ever taken for a folder to write into (a generator once wrote 25 cases into `--help/` at the
top of the repository)."""
import os
import sys


def refuse(usage, why):
    sys.stderr.write('%s: error: %s\n\n%s\n' % (os.path.basename(sys.argv[0]), why, usage.strip()))
    sys.exit(2)


def command_line(argv, usage=None, options=None, least=0):
    """argv, checked and returned as it is. usage: the running script's docstring unless given;
    options: {name: the number of values that follow it}; least: the fewest arguments that are
    not options or their values."""
    usage = usage or sys.modules['__main__'].__doc__ or ''
    options = options or {}
    i, plain = 1, 0
    while i < len(argv):
        a = argv[i]
        if a in ('-h', '--help'):
            print(usage.strip())
            sys.exit(0)
        if a.startswith('-') and a != '-':
            if a not in options:
                refuse(usage, "unknown option '%s'" % a)
            values = argv[i + 1:i + 1 + options[a]]
            if len(values) < options[a] or any(v.startswith('-') for v in values):
                refuse(usage, '%s takes %d value%s' % (a, options[a], '' if options[a] == 1 else 's'))
            i += 1 + options[a]
        else:
            plain += 1
            i += 1
    if plain < least:
        refuse(usage, 'expected %d argument%s or more, not %d' % (least, '' if least == 1 else 's', plain))
    return argv
