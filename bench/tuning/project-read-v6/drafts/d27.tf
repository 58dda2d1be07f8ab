terraform {
  required_version = ">= 1.6"
  required_providers {
    google = {
      source  = "hashicorp/google"
      version = "~> 4.84"
    }
  }
}

resource "google_storage_bucket" "zalando_landing" {
  name                        = "riverbed-raw-landing-zalando"
  location                    = "EU"
  uniform_bucket_level_access = true
  public_access_prevention    = "enforced"

  lifecycle_rule {
    condition {
      age = 30
    }
    action {
      type = "Delete"
    }
  }

  labels = {
    layer  = "raw"
    source = "zalando"
  }
}
