"""Run-time interface detection, inside the step, because only the node knows its interfaces."""

from __future__ import annotations

# ARPHRD_INFINIBAND in /sys/class/net/<if>/type; `ib*` catches IPoIB names on drivers that differ.
DETECT_IB = r"""# fabric.interface auto: the first InfiniBand interface that is up on this node, for NCCL
# and Gloo alike; without one, NCCL and Gloo choose for themselves.
jobc_iface=''
for jobc_dev in /sys/class/net/*; do
  jobc_name=${jobc_dev##*/}
  jobc_type=''
  jobc_state=''
  if [[ -r $jobc_dev/type ]]; then jobc_type=$(<"$jobc_dev/type"); fi
  if [[ -r $jobc_dev/operstate ]]; then jobc_state=$(<"$jobc_dev/operstate"); fi
  if [[ ($jobc_type == 32 || $jobc_name == ib*) && $jobc_state == up ]]; then
    jobc_iface=$jobc_name
    break
  fi
done
if [[ -n $jobc_iface ]]; then
  export NCCL_SOCKET_IFNAME=$jobc_iface GLOO_SOCKET_IFNAME=$jobc_iface
elif [[ ${SLURM_LOCALID:-0} == 0 ]]; then
  printf 'jobc: %s: no InfiniBand interface is up; NCCL and Gloo choose the interface\n' "$(hostname)" >&2
fi
"""
