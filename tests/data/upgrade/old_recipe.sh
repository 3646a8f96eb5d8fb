#!/bin/bash
# A fully-async script from before the recipes moved into verl/experimental.
python3 -m recipe.fully_async_policy.fully_async_main \
    trainer.total_epochs=2 \
    trainer.no_such_key=1
