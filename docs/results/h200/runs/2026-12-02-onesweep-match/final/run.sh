#!/usr/bin/env bash
set -u
cd "$(dirname "$0")"
O=/tmp/res; rm -rf $O; mkdir -p $O
trap 'tar czf /tmp/results.tgz -C "$O" . && mv /tmp/results.tgz "$OUT/"' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$O/gpu.txt" 2>&1
echo "\$ ./cg-lab compare --only device_radix_sort --runs 15 --warmup 2" >> $O/commands.txt
timeout 300 ./cg-lab compare --only device_radix_sort --runs 15 --warmup 2 --out $O/device_radix_sort > $O/device_radix_sort.console 2>&1; echo "sort rc=$?" | tee -a $O/rc.txt
grep -E "n=2\^" $O/device_radix_sort.console | grep -v ^verified
