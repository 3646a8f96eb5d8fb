#!/bin/bash
python3 -m verl.trainer.main_generation trainer.nnodes=1
python3 verl.trainer.main_ppo trainer.nnodes=1
