"""The AlienCode hypothesis engine, the `explorer` agents and the exploration
metrics of AlienCode traces (docs/explore-aliencode.md).

* `view`: what a system sees, read from the texts it is shown (keywords
  from the manual, the rule-report template, the worked examples);
* `space`: the candidate rule expressions of a site;
* `evaluate`: their outcomes on recorded operands;
* `simulate`: a program run under candidate rules, recording every rule call;
* `engine`: the surviving hypotheses of every rule, observation by observation;
* `design`: probes chosen by expected information gain;
* `agent`: the `explorer` agent and its random- and fixed-probe variants;
* `metrics`: the exploration section of a trace.
"""
