"""The stand-in base is vLLM main's (not the unmerged vllm#50897's), and the conformance harness's comparison
with vLLM's real base catches a member or a signature that drifts."""

import types
import unittest

from conformance import base_check

from . import vllm_api
from .vllm_api import KVConnectorBase_V1, SupportsHMA, public_members


class StandInBaseTest(unittest.TestCase):

    def test_the_stand_in_has_mains_members_not_the_unmerged_eagle_hashing_ones(self):
        members = set(public_members(KVConnectorBase_V1))
        self.assertIn("supports_divergent_local_hybrid_hits", members, "vllm#50344, in main since 2026-08-09")
        self.assertNotIn("supports_eagle_prefix_cache_hashing", members, "vllm#50897, not merged")
        self.assertNotIn("set_eagle_prefix_cache_hashing", members, "vllm#50897, not merged")
        self.assertIs(False, KVConnectorBase_V1.supports_divergent_local_hybrid_hits.fget(None), "vLLM's default")

    def test_the_comparison_is_silent_on_the_same_classes(self):
        self.assertEqual([], base_check.compare(real_module=vllm_api, standin_module=vllm_api))

    def test_the_comparison_names_a_missing_member_an_extra_one_and_a_changed_signature(self):
        class Real(KVConnectorBase_V1):
            @property
            def new_flag(self):
                return False

            def get_finished(self, finished_req_ids, extra=None):
                return None, None

        real = types.SimpleNamespace(KVConnectorBase_V1=Real, SupportsHMA=SupportsHMA,
                                     KVConnectorRole=vllm_api.KVConnectorRole)
        drift = base_check.compare(real_module=real, standin_module=vllm_api)
        self.assertEqual(2, len(drift), drift)
        self.assertIn("KVConnectorBase_V1.new_flag is vLLM's (property(self)) but not the stand-in's", drift)
        self.assertTrue(any(d.startswith("KVConnectorBase_V1.get_finished: vLLM's is function "
                                         "(self, finished_req_ids, extra=None)") for d in drift), drift)
        backwards = base_check.compare(real_module=vllm_api, standin_module=real)
        self.assertIn("KVConnectorBase_V1.new_flag is the stand-in's but not vLLM's", backwards)


if __name__ == "__main__":
    unittest.main()
