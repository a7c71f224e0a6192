# -*- Python -*-
# The gtest binaries (test/unit/*Tests) run as one lit suite, so that
# `check-kiln` runs them alongside the IR tests.

import os

import lit.formats

config.name = "Kiln-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.kiln_obj_root, "test", "unit")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
# Compiles are real (no compile cache in the home folder); tests of the
# cache point KILN_CACHE_DIR at their own folder.
config.environment["KILN_CACHE_DIR"] = "off"
