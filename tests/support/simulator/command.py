#!/usr/bin/python3 -IS
"""The program every stub's name (`srun`, `python`, `torchrun`, …) links to in the sandbox: it runs
`stub.main()`. A script Python runs is compiled each time it starts, a module it imports is read
compiled (the stubs' directory holds their bytecode): so the stubs' code is a module, and this file,
which every command a job runs starts, is as small as it can be.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

import stub

stub.main()
