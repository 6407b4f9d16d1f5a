"""Close combat under the House Rules V1.0, s. 6: who may assault whom, the rule numbers, the
rounds in play and the choices they wait for."""
