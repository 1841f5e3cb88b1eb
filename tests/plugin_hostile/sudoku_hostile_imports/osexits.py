import os

os._exit(3)
