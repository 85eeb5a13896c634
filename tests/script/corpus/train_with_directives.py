#!/usr/bin/env python3
#SBATCH --nodes=1
#SBATCH --time=00:30:00
import os
print(os.environ.get("SLURM_PROCID"))
