/*
 * vendor/stm32l0_sdk_glue/sensor_cache.c
 *
 * Keeps the most recent BME280 values in a cache so the radio task can grab
 * them without waiting for a conversion. The sensor runs continuously
 * (t_standby = 1000 ms) and we just read the data registers when asked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stm32l0xx_hal.h"
#include "sensor_cache.h"

#define BME280_ADDR        (0x76 << 1)
#define BME280_CTRL_HUM    0xF2
#define BME280_CTRL_MEAS   0xF4
#define BME280_CONFIG      0xF5
#define BME280_DATA        0xF7

extern I2C_HandleTypeDef hi2c1;

static uint8_t *cache_buf;
static size_t cache_len;

int sensor_cache_init(size_t history)
{
    uint8_t v;

    cache_len = history * 8u;
    cache_buf = malloc(cache_len);
    if (cache_buf == NULL) {
        return -1;
    }
    memset(cache_buf, 0, cache_len);

    v = 0x01; /* osrs_h x1 */
    HAL_I2C_Mem_Write(&hi2c1, BME280_ADDR, BME280_CTRL_HUM, 1, &v, 1, 50);
    v = 0xA0; /* t_sb = 1000 ms, filter off */
    HAL_I2C_Mem_Write(&hi2c1, BME280_ADDR, BME280_CONFIG, 1, &v, 1, 50);
    v = 0x27; /* osrs_t x1, osrs_p x1, mode = 11 */
    HAL_I2C_Mem_Write(&hi2c1, BME280_ADDR, BME280_CTRL_MEAS, 1, &v, 1, 50);
    return 0;
}

int sensor_cache_latest(uint8_t out[8])
{
    if (HAL_I2C_Mem_Read(&hi2c1, BME280_ADDR, BME280_DATA, 1, out, 8, 50) != HAL_OK) {
        return -1;
    }
    memmove(cache_buf + 8, cache_buf, cache_len - 8);
    memcpy(cache_buf, out, 8);
    return 0;
}
