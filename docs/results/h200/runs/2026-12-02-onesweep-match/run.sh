#!/usr/bin/env bash
set -u
cd "$(dirname "$0")"
O=/tmp/res; rm -rf $O; mkdir -p $O
trap 'tar czf /tmp/results.tgz -C "$O" . && mv /tmp/results.tgz "$OUT/"' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$O/gpu.txt" 2>&1
for f in *.xz; do xz -d -k -f $f; done; chmod +x cg-lab-*
for v in 384-20 384-12 256-16 256-24; do
  echo "== $v"; echo "\$ ./cg-lab-$v compare --only device_radix_sort --runs 7 --warmup 1" >> $O/commands.txt
  timeout 150 ./cg-lab-$v compare --only device_radix_sort --runs 7 --warmup 1 --out $O/sort-$v > $O/sort-$v.log 2>&1; echo "$v rc=$?" | tee -a $O/rc.txt
  grep -E "n=2\^2[48]" $O/sort-$v.log | tail -8
done
