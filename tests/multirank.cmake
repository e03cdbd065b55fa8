# Multi-rank mode (REPORT_FEATURES part H; part I items 19-41) and the
# cross-rank analyses. Included at the end of tests/CMakeLists.txt, so the
# helpers tlscope_unit_test / tlscope_e2e_test defined there are available.
# Every file is listed: a missing one fails the configure step.

tlscope_unit_test(ranks_test unit/ranks_test.cc)

foreach(_mr IN ITEMS multirank_test multirank_analyses_test multirank_robustness_test
                   multirank_synthetic_test multirank_left_out_test)
  tlscope_e2e_test(e2e_${_mr} e2e/${_mr}.cc)
endforeach()

# Map and reduce (`tlscope rank`, `tlscope merge`; docs/cluster.md): the
# rank summary file, the shard a task takes, and the merged report equal to
# --all-ranks-html, also under mpirun (openmpi-bin, from scripts/setup).
tlscope_unit_test(rank_summary_test unit/rank_summary_test.cc)
tlscope_unit_test(shard_test unit/shard_test.cc)
tlscope_e2e_test(e2e_cluster_test e2e/cluster_test.cc)
target_compile_definitions(e2e_cluster_test PRIVATE
  TLSCOPE_GEN_TRACE="${PROJECT_SOURCE_DIR}/bench/gen_trace.py")
