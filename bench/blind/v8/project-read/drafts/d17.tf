# terraform/guest/versions.tf

terraform {
  required_version = "~> 1.9.0"

  # GitLab-managed state; address/lock settings come from TF_HTTP_* in CI
  backend "http" {}

  required_providers {
    vsphere = {
      source  = "hashicorp/vsphere"
      version = "~> 2.8.1"
    }
    nsxt = {
      source  = "vmware/nsxt"
      version = "~> 3.6.1"
    }
  }
}

provider "vsphere" {
  vsphere_server       = var.vcenter_host
  user                 = var.vcenter_user
  password             = var.vcenter_password
  allow_unverified_ssl = false
}

provider "nsxt" {
  host                 = var.nsx_manager
  username             = var.nsx_user
  password             = var.nsx_password
  allow_unverified_ssl = false
}

# Only the guest captive-portal VMs and their NSX segment live here.
# The guest SSID/VLAN 90 on the physical side is the ansible ward_wlan role;
# nothing in this module provisions switches.
variable "vcenter_password" {
  type      = string
  sensitive = true
}

variable "nsx_password" {
  type      = string
  sensitive = true
}
