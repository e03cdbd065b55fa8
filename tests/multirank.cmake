# Multi-rank mode (REPORT_FEATURES part H; part I items 19-41) and the
# cross-rank analyses. Included at the end of tests/CMakeLists.txt, so the
# helpers tlscope_unit_test / tlscope_e2e_test defined there are available.
# Every file is listed: a missing one fails the configure step.

tlscope_unit_test(ranks_test unit/ranks_test.cc)

foreach(_mr IN ITEMS multirank_test multirank_analyses_test multirank_robustness_test
                   multirank_synthetic_test multirank_left_out_test)
  tlscope_e2e_test(e2e_${_mr} e2e/${_mr}.cc)
endforeach()
