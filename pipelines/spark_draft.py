"""Entry point for spark-submit: runs the miner command line inside the Spark
application, so `miner draft --engine spark` uses the cluster's session.

    spark-submit --master yarn --deploy-mode client pipelines/spark_draft.py \
        draft --engine spark --pipeline pipelines/support_agent.toml \
        --traces gs://my-bucket/agent_events/ --since 7d --out drafts/

The driver writes --out on the machine it runs on (client mode keeps it on
yours). Executors need miner and its dependencies installed (a cluster image,
or --archives with a packed virtualenv).
"""

from miner.cli import main

if __name__ == "__main__":
    main()
