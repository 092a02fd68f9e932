"""The load run (`make load`): a scaled-out site on loopback under a bounded locust load, its
figures per endpoint, and the check that no deck write was lost (docs/deploy.md "Scale-out")."""
